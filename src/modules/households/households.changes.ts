import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { HouseholdResponse } from './dto/household.response';
import { HouseholdsService } from './households.service';

/** Households in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class HouseholdsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly households: HouseholdsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'household',
      prefix: ID_PREFIX.household,
      scope: 'read:members',
      response: HouseholdResponse,
      load: (ids) => this.households.getMany(ids),
    });
  }
}
