import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { FundResponse } from './dto/fund.response';
import { FundsService } from './funds.service';

/** Funds in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class FundsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly funds: FundsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'fund',
      prefix: ID_PREFIX.fund,
      scope: 'read:donations',
      response: FundResponse,
      load: (ids) => this.funds.getMany(ids),
    });
  }
}
