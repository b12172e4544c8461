import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { ProspectResponse } from './dto/prospect.response';
import { ProspectsService } from './prospects.service';

/** Prospects in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class ProspectsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly prospects: ProspectsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'prospect',
      prefix: ID_PREFIX.prospect,
      scope: 'read:members',
      response: ProspectResponse,
      load: (ids) => this.prospects.getMany(ids),
    });
  }
}
