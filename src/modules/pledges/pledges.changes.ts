import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { PledgeResponse } from './dto/pledge.response';
import { PledgesService } from './pledges.service';

/** Pledges in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class PledgesChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly pledges: PledgesService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'pledge',
      prefix: ID_PREFIX.pledge,
      scope: 'read:donations',
      response: PledgeResponse,
      load: (ids) => this.pledges.getMany(ids),
    });
  }
}
