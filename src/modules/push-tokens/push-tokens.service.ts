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

  /** The member must be live: locked FOR SHARE until the transaction ends, so that a concurrent delete waits. */
  async register(memberId: string, dto: RegisterPushTokenDto): Promise<{ token: PushTokenResponse; created: boolean }> {
    await this.members.requireLive(memberId, 'pessimistic_read');
    const { row, created } = await this.tokens.upsert(memberId, dto.token, dto.platform);
    return { token: toResponse(row), created };
  }

  async list(memberId: string): Promise<PushTokenList> {
    await this.members.requireLive(memberId, 'pessimistic_read');
    const rows = await this.tokens.list(memberId);
    return { data: rows.map(toResponse), next_cursor: null, total: rows.length };
  }

  async remove(memberId: string, id: string): Promise<void> {
    if (!(await this.tokens.delete(memberId, id))) throw AppError.notFound('push token');
  }
}
