import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { BatchResponse } from './dto/batch.response';
import { BatchesService } from './batches.service';

/** Batches in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class BatchesChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly batches: BatchesService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'batch',
      prefix: ID_PREFIX.batch,
      scope: 'read:donations',
      response: BatchResponse,
      load: (ids) => this.batches.getMany(ids),
    });
  }
}
