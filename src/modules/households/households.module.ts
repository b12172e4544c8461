import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { HouseholdsController } from './households.controller';
import { HouseholdsRepository } from './households.repository';
import { HouseholdsService } from './households.service';
import { HouseholdsChangeSource } from './households.changes';

@Module({
  imports: [MembersModule],
  controllers: [HouseholdsController],
  providers: [HouseholdsService, HouseholdsChangeSource, HouseholdsRepository],
  exports: [HouseholdsService],
})
export class HouseholdsModule {}
