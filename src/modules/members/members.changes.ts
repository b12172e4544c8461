import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { MemberResponse } from './dto/member.response';
import { MembersService } from './members.service';

/** Members in the changes feed and their history (CONTRACT §15–§16). */
@Injectable()
export class MembersChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly members: MembersService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'member',
      prefix: ID_PREFIX.member,
      scope: 'read:members',
      response: MemberResponse,
      load: (ids) => this.members.getMany(ids),
    });
  }
}
