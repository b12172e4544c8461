import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids/id';
import { tenantScope } from '../../database/tenant-scope';
import type { PushPlatform } from './dto/register-push-token.dto';

/** A member keeps their newest tokens: registering one more drops the least recently registered. */
export const MAX_TOKENS_PER_MEMBER = 20;

export interface PushTokenRow {
  id: string;
  member_id: string;
  token: string;
  platform: PushPlatform;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, member_id, token, platform, created_at, updated_at';

/** The module's only database surface. Every query names the tenant (RLS enforces it too). */
@Injectable()
export class PushTokensRepository {
  /** Inserts the token or, when the church knows it already (even concurrently), moves it to this member: one row per token. */
  async upsert(
    memberId: string,
    token: string,
    platform: PushPlatform,
  ): Promise<{ row: PushTokenRow; created: boolean }> {
    const { manager, tenantId } = tenantScope();
    const [row] = await manager.query<(PushTokenRow & { created: boolean })[]>(
      `INSERT INTO member_push_tokens (tenant_id, id, member_id, token, platform) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, token) DO UPDATE SET member_id = excluded.member_id, platform = excluded.platform, updated_at = now()
       RETURNING ${COLUMNS}, (xmax = 0) AS created`,
      [tenantId, newUuid(), memberId, token, platform],
    );
    await manager.query(
      `DELETE FROM member_push_tokens WHERE tenant_id = $1 AND member_id = $2 AND id NOT IN (
         SELECT id FROM member_push_tokens WHERE tenant_id = $1 AND member_id = $2 ORDER BY updated_at DESC, id DESC LIMIT $3)`,
      [tenantId, memberId, MAX_TOKENS_PER_MEMBER],
    );
    const { created, ...rest } = row;
    return { row: rest, created };
  }

  list(memberId: string): Promise<PushTokenRow[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query(
      `SELECT ${COLUMNS} FROM member_push_tokens WHERE tenant_id = $1 AND member_id = $2 ORDER BY created_at, id`,
      [tenantId, memberId],
    );
  }

  async delete(memberId: string, id: string): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    // TypeORM answers a DELETE with [rows, affected count].
    const [, affected] = await manager.query<[unknown[], number]>(
      'DELETE FROM member_push_tokens WHERE tenant_id = $1 AND member_id = $2 AND id = $3',
      [tenantId, memberId, id],
    );
    return affected > 0;
  }
}
