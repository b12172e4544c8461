import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { RecurringGiftResponse } from './dto/recurring-gift.response';
import { RecurringGiftsService } from './recurring-gifts.service';

/** Recurring gifts in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class RecurringGiftsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly recurringGifts: RecurringGiftsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'recurring_gift',
      prefix: ID_PREFIX.recurringGift,
      scope: 'read:donations',
      response: RecurringGiftResponse,
      load: (ids) => this.recurringGifts.getMany(ids),
    });
  }
}
