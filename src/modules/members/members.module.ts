import { Module } from '@nestjs/common';
import { CampusesModule } from '../campuses/campuses.module';
import { CampusDirectory } from './campus-directory';
import { MembersBulkService } from './members-bulk.service';
import { MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

@Module({
  imports: [CampusesModule],
  controllers: [MembersController],
  providers: [MembersService, MembersBulkService, MembersRepository, CampusDirectory],
  exports: [MembersService],
})
export class MembersModule {}
