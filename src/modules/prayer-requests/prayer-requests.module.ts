import { Module } from '@nestjs/common';
import { CampusesModule } from '../campuses/campuses.module';
import { MembersModule } from '../members/members.module';
import { PrayerRequestsController } from './prayer-requests.controller';
import { PrayerRequestsRepository } from './prayer-requests.repository';
import { PrayerRequestsService } from './prayer-requests.service';

@Module({
  imports: [CampusesModule, MembersModule],
  controllers: [PrayerRequestsController],
  providers: [PrayerRequestsService, PrayerRequestsRepository],
  exports: [PrayerRequestsService],
})
export class PrayerRequestsModule {}
