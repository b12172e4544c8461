import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import { tenantScope } from '../../database/tenant-scope';
import type { Role } from '../../platform/auth/scopes';

/** A session row with its staff member and church as they are now. */
export interface SessionRow {
  id: string;
  tenant_id: string;
  user_id: string;
  csrf_hash: Buffer;
  created_at: Date;
  last_seen_at: Date;
  email: string;
  role: Role;
  church_slug: string;
  church_name: string;
  church_status: string;
  church_plan: string;
}

/**
 * The console's sessions (table console_sessions). The look-up by cookie runs on the platform role
 * before the church is known (as a bearer token's does); the rest in the church's transaction.
 */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly db: Database) {}

  /** Platform role: the session whose cookie hashes to `cookieHash`, joined with its user and church. */
  async findByCookie(cookieHash: Buffer): Promise<SessionRow | null> {
    const rows: SessionRow[] = await this.db.platform.query(
      `SELECT s.id, s.tenant_id, s.user_id, s.csrf_hash, s.created_at, s.last_seen_at,
              u.email, u.role, t.slug AS church_slug, t.name AS church_name, t.status AS church_status, t.plan AS church_plan
         FROM console_sessions s
         JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
         JOIN tenants t ON t.id = s.tenant_id
        WHERE s.cookie_hash = $1`,
      [cookieHash],
    );
    return rows[0] ?? null;
  }

  async insert(row: { userId: string; cookieHash: Buffer; csrfHash: Buffer; now: Date }): Promise<string> {
    const { manager, tenantId } = tenantScope();
    const id = newUuid();
    await manager.query(
      `INSERT INTO console_sessions (tenant_id, id, cookie_hash, csrf_hash, user_id, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [tenantId, id, row.cookieHash, row.csrfHash, row.userId, row.now],
    );
    return id;
  }

  /** Platform role: marks the session used now (its idle limit starts again). */
  async touch(tenantId: string, id: string, now: Date): Promise<void> {
    await this.db.platform.query(
      `UPDATE console_sessions SET last_seen_at = $3 WHERE tenant_id = $1 AND id = $2 AND last_seen_at < $3`,
      [tenantId, id, now],
    );
  }

  /** Platform role: ends one session (sign-out, or found past a limit). */
  async delete(tenantId: string, id: string): Promise<void> {
    await this.db.platform.query(`DELETE FROM console_sessions WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  /** Platform role: removes up to 100 sessions past their idle or absolute limit, of any church. */
  async deleteStale(idleBefore: Date, createdBefore: Date): Promise<void> {
    await this.db.platform.query(
      `DELETE FROM console_sessions WHERE ctid IN (
         SELECT ctid FROM console_sessions WHERE last_seen_at < $1 OR created_at < $2 LIMIT 100)`,
      [idleBefore, createdBefore],
    );
  }
}
