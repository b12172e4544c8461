import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { MemberLookup } from '../members/member-lookup';
import type { PushTokenList, PushTokenResponse } from './dto/push-token.response';
import type { RegisterPushTokenDto } from './dto/register-push-token.dto';
import { PushTokenRow, PushTokensRepository } from './push-tokens.repository';

function toResponse(row: PushTokenRow): PushTokenResponse {
  return {
    id: toPublicId(ID_PREFIX.pushToken, row.id),
    member_id: toPublicId(ID_PREFIX.member, row.member_id),
    platform: row.platform,
    token_last8: row.token.slice(-8),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

@Injectable()
export class PushTokensService {
  constructor(
    private readonly tokens: PushTokensRepository,
    private readonly members: MemberLookup,
  ) {}

  /**
   * The member must be live: locked FOR SHARE until the transaction ends, so that a concurrent delete
   * waits. A member merged into another names the survivor (CONTRACT §17): the token is the
   * survivor's (`member_id` shows it); one that waited for a merge follows it.
   */
  async register(named: string, dto: RegisterPushTokenDto): Promise<{ token: PushTokenResponse; created: boolean }> {
    const member = await this.members.findLiveOrSurvivor(named, 'pessimistic_read');
    if (!member) throw AppError.notFound('member');
    const { row, created } = await this.tokens.upsert(member.id, dto.token, dto.platform);
    return { token: toResponse(row), created };
  }

  /** A member merged into another: 301 to the survivor's tokens (CONTRACT §17). */
  async list(memberId: string): Promise<PushTokenList> {
    await this.members.requireLiveForRead(memberId, 'push-tokens');
    const rows = await this.tokens.list(memberId);
    return { data: rows.map(toResponse), next_cursor: null, total: rows.length };
  }

  /** A member merged into another names the survivor (its tokens moved there). */
  async remove(named: string, id: string): Promise<void> {
    const memberId = (await this.members.liveOrSurvivorIds([named], 'for_key_share')).get(named) ?? named;
    if (!(await this.tokens.delete(memberId, id))) throw AppError.notFound('push token');
  }
}
