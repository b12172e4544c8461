import { Module } from '@nestjs/common';
import { CampusesModule } from '../campuses/campuses.module';
import { FundsModule } from '../funds/funds.module';
import { MembersModule } from '../members/members.module';
import { DonationRefsLoader } from './donation-refs';
import { DonationRefundsService } from './donation-refunds.service';
import { DonationsController } from './donations.controller';
import { DonationsRepository } from './donations.repository';
import { DonationsService } from './donations.service';
import { DonationsChangeSource } from './donations.changes';
import { MemberDonationsController } from './member-donations.controller';

/** Donations and their refunds (DonationRefundsService, answered through DonationsService). DonationsService is exported: batches commit through it, the payment processor records through it. */
@Module({
  imports: [CampusesModule, FundsModule, MembersModule],
  controllers: [DonationsController, MemberDonationsController],
  providers: [DonationsService, DonationsChangeSource, DonationRefundsService, DonationsRepository, DonationRefsLoader],
  exports: [DonationsService, FundsModule],
})
export class DonationsModule {}
