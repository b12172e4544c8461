import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { TagResponse } from './dto/tag.response';
import { TagsService } from './tags.service';

/** Tags in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class TagsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly tags: TagsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'tag',
      prefix: ID_PREFIX.tag,
      scope: 'read:members',
      response: TagResponse,
      load: (ids) => this.tags.getMany(ids),
    });
  }
}
