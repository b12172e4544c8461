import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { CampusesModule } from '../campuses/campuses.module';
import { MembersModule } from '../members/members.module';
import { PrayerRequestsController } from './prayer-requests.controller';
import { PrayerRequestsRepository } from './prayer-requests.repository';
import { PrayerRequestsService } from './prayer-requests.service';
import { PrayerRequestsChangeSource } from './prayer-requests.changes';

@Module({
  imports: [CampusesModule, MembersModule, UsersModule],
  controllers: [PrayerRequestsController],
  providers: [PrayerRequestsService, PrayerRequestsChangeSource, PrayerRequestsRepository],
  exports: [PrayerRequestsService],
})
export class PrayerRequestsModule {}
