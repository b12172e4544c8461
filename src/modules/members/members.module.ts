import { Module } from '@nestjs/common';
import { CampusesModule } from '../campuses/campuses.module';
import { CampusDirectory } from './campus-directory';
import { TagsModule } from '../tags/tags.module';
import { CustomFieldsModule } from '../custom-fields/custom-fields.module';
import { MemberTagRefs } from './member-tag-refs';
import { MemberTagsController } from './member-tags.controller';
import { MemberTagsService } from './member-tags.service';
import { MemberHouseholdsService } from './member-households.service';
import { MemberLookup } from './member-lookup';
import { MemberMergeRepository } from './member-merge.repository';
import { MemberMergeService } from './member-merge.service';
import { MembersChangeSource } from './members.changes';
import { MembersBulkService } from './members-bulk.service';
import { MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

@Module({
  imports: [CampusesModule, TagsModule, CustomFieldsModule],
  controllers: [MembersController, MemberTagsController],
  providers: [
    MembersService,
    MembersChangeSource,
    MembersBulkService,
    MembersRepository,
    CampusDirectory,
    MemberHouseholdsService,
    MemberLookup,
    MemberMergeService,
    MemberMergeRepository,
    MemberTagRefs,
    MemberTagsService,
  ],
  exports: [MembersService, MemberHouseholdsService, MemberLookup, MemberTagsService, CampusDirectory, MemberTagRefs],
})
export class MembersModule {}
