import { Module } from '@nestjs/common';
import { CampusesModule } from '../campuses/campuses.module';
import { MembersModule } from '../members/members.module';
import { TagsModule } from '../tags/tags.module';
import { GroupMembersController } from './group-members.controller';
import { GroupMembersService } from './group-members.service';
import { GroupsController } from './groups.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';
import { GroupsChangeSource } from './groups.changes';

@Module({
  imports: [CampusesModule, TagsModule, MembersModule],
  controllers: [GroupsController, GroupMembersController],
  providers: [GroupsService, GroupsChangeSource, GroupMembersService, GroupsRepository],
  exports: [GroupsService, GroupMembersService],
})
export class GroupsModule {}
