import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { DonationResponse } from './dto/donation.response';
import { DonationsService } from './donations.service';

/** Donations in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class DonationsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly donations: DonationsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'donation',
      prefix: ID_PREFIX.donation,
      scope: 'read:donations',
      response: DonationResponse,
      load: (ids) => this.donations.getMany(ids),
    });
  }
}
