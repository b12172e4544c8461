import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { GroupResponse } from './dto/group.response';
import { GroupsService } from './groups.service';

/** Cell groups in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class GroupsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly groups: GroupsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'group',
      prefix: ID_PREFIX.group,
      scope: 'read:groups',
      response: GroupResponse,
      load: (ids) => this.groups.getMany(ids),
    });
  }
}
