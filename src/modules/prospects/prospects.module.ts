import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { CampusesModule } from '../campuses/campuses.module';
import { MembersModule } from '../members/members.module';
import { ProspectsController } from './prospects.controller';
import { ProspectsRepository } from './prospects.repository';
import { ProspectsService } from './prospects.service';
import { ProspectsChangeSource } from './prospects.changes';

@Module({
  imports: [CampusesModule, MembersModule, UsersModule],
  controllers: [ProspectsController],
  providers: [ProspectsService, ProspectsChangeSource, ProspectsRepository],
  exports: [ProspectsService],
})
export class ProspectsModule {}
