import { Injectable } from '@nestjs/common';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { CheckInEntity } from './check-in.entity';

/** What a check-in needs of its event: the time zone that sets the code's day, and whether it was canceled. */
export interface EventForCheckIn {
  id: string;
  timezone: string;
  status: string;
}

/** One row of a search: a person and the household they are listed under (null: on their own). */
export interface SearchRow {
  householdId: string | null;
  householdName: string;
  id: string;
  firstName: string;
  lastName: string;
  age: number | null;
  checkedIn: boolean;
}

/** Households listed by one search at most. */
const SEARCH_HITS = 25;

/** The module's only database surface; every query names the tenant (RLS enforces it too). */
@Injectable()
export class CheckInRepository {
  /** The church's live event (the check-in's foreign key holds it while the transaction runs). */
  async findEvent(id: string): Promise<EventForCheckIn | null> {
    const { manager, tenantId } = tenantScope();
    const rows: EventForCheckIn[] = await manager.query(
      `SELECT id, timezone, status FROM events WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  }

  /** The church's device, or null. */
  async deviceExists(id: string): Promise<boolean> {
    const { manager, tenantId } = tenantScope();
    const rows: unknown[] = await manager.query(`SELECT 1 FROM devices WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows.length > 0;
  }

  /** The device a token belongs to (kiosk keys), or null. */
  async deviceOfToken(tokenId: string): Promise<string | null> {
    const { manager, tenantId } = tenantScope();
    const rows: { device_id: string | null }[] = await manager.query(
      `SELECT device_id FROM api_tokens WHERE tenant_id = $1 AND id = $2`,
      [tenantId, tokenId],
    );
    return rows[0]?.device_id ?? null;
  }

  /** The church's own banned sequences (PUT /v1/settings/check-in); none until set. */
  async bannedSequences(): Promise<string[]> {
    const { manager, tenantId } = tenantScope();
    const [row] = await manager.query<{ banned_sequences: string[] }[]>(
      'SELECT banned_sequences FROM check_in_settings WHERE tenant_id = $1',
      [tenantId],
    );
    return row?.banned_sequences ?? [];
  }

  async saveBannedSequences(sequences: string[]): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO check_in_settings (tenant_id, banned_sequences, updated_at) VALUES ($1, $2::text[], now())
       ON CONFLICT (tenant_id) DO UPDATE SET banned_sequences = excluded.banned_sequences, updated_at = now()`,
      [tenantId, sequences],
    );
  }

  /**
   * Inserts the check-in with `code` unless the church already used that code on the day (the
   * event's local date now): then nothing is written and null comes back, for another code. A
   * concurrent insert of the same code waits here for the other transaction and then yields.
   */
  async insertWithCode(
    row: Omit<CheckInEntity, 'day' | 'securityCode' | 'createdAt' | 'updatedAt'>,
    timezone: string,
    code: string,
  ): Promise<CheckInEntity | null> {
    const { manager } = tenantScope();
    const rows: { day: string; created_at: Date }[] = await manager.query(
      `INSERT INTO check_ins (tenant_id, id, event_id, day, security_code, member_ids, device_id, token_id)
       VALUES ($1, $2, $3, (now() AT TIME ZONE $4)::date, $5, $6::uuid[], $7, $8)
       ON CONFLICT (tenant_id, day, security_code) DO NOTHING
       RETURNING to_char(day, 'YYYY-MM-DD') AS day, created_at`,
      [row.tenantId, row.id, row.eventId, timezone, code, row.memberIds, row.deviceId, row.tokenId],
    );
    if (!rows[0]) return null;
    return Object.assign(new CheckInEntity(), row, {
      day: rows[0].day,
      securityCode: code,
      createdAt: rows[0].created_at,
      updatedAt: rows[0].created_at,
    });
  }

  findById(id: string, lock?: RowLock): Promise<CheckInEntity | null> {
    const { repo, tenantId } = tenantScope(CheckInEntity);
    return repo.findOne({ where: { tenantId, id }, ...withLock(lock) });
  }

  async update(id: string, changes: Partial<CheckInEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(CheckInEntity);
    await repo.update({ tenantId, id }, changes);
  }

  /** Seconds (rounded up) until the check-in's check-out lock runs out by the database's clock; 0 when not locked. */
  async checkoutLockSeconds(id: string): Promise<number> {
    const { manager, tenantId } = tenantScope();
    const rows: { seconds: number }[] = await manager.query(
      `SELECT ceil(extract(epoch FROM checkout_locked_until - now()))::int AS seconds FROM check_ins
        WHERE tenant_id = $1 AND id = $2 AND checkout_locked_until > now()`,
      [tenantId, id],
    );
    return rows[0]?.seconds ?? 0;
  }

  /**
   * Counts a wrong check-out code in one statement, on the row as last committed (so concurrent
   * counts add up): the count goes up by one, or starts again at one when a lock has run out, and
   * reaching `limit.failures` locks check-out for `limit.seconds` from now. A lock still running is
   * kept as it is (the service refuses before counting).
   */
  async recordCheckoutFailure(id: string, limit: { failures: number; seconds: number }): Promise<void> {
    const { manager, tenantId } = tenantScope();
    const count = `CASE WHEN checkout_locked_until <= now() THEN 1 ELSE checkout_failures + 1 END`;
    await manager.query(
      `UPDATE check_ins
          SET checkout_failures = ${count},
              checkout_locked_until = CASE WHEN checkout_locked_until > now() THEN checkout_locked_until
                                           WHEN ${count} >= $3 THEN now() + make_interval(secs => $4) END
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, limit.failures, limit.seconds],
    );
  }

  /**
   * The households with a member whose phone ends in `phoneLast4`, or whose name (or a member's
   * first or last name) starts with `name`, each with all its live members; a matching person in
   * no household is listed alone. `checked_in`: has attendance at the event.
   */
  async search(eventId: string, by: { phoneLast4: string } | { name: string }): Promise<SearchRow[]> {
    const { manager, tenantId } = tenantScope();
    // Plain-column conditions (see the AddSearchKeyColumns migration): under row-level security only
    // leakproof comparisons reach the indexes, so the prefix is a range of the pattern operators.
    const prefix = (column: string) =>
      `(${column} ~>=~ lower($3) AND ${column} ~<=~ (lower($3) || U&'\\+10FFFF') AND starts_with(${column}, lower($3)))`;
    const hits =
      'phoneLast4' in by
        ? `SELECT m.id, m.household_id FROM members m
            WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND m.phone_last4 IS NOT NULL AND m.phone_last4 = $3
            LIMIT ${SEARCH_HITS * 4}`
        : `(SELECT m.id, m.household_id FROM members m
             WHERE m.tenant_id = $1 AND m.deleted_at IS NULL AND (${prefix('m.last_name_key')} OR ${prefix('m.first_name_key')})
             LIMIT ${SEARCH_HITS * 4})
           UNION
           (SELECT NULL::uuid, h.id FROM households h
             WHERE h.tenant_id = $1 AND h.deleted_at IS NULL AND ${prefix('h.name_key')}
             LIMIT ${SEARCH_HITS})`;
    const param = 'phoneLast4' in by ? by.phoneLast4 : by.name;
    return manager.query(
      `WITH hits AS (${hits}),
            homes AS (SELECT DISTINCT household_id FROM hits WHERE household_id IS NOT NULL LIMIT ${SEARCH_HITS}),
            people AS (
              SELECT h.id AS household_id, h.name AS household_name, m.id, m.first_name, m.last_name, m.birthdate, m.household_role
                FROM homes
                JOIN households h ON h.tenant_id = $1 AND h.id = homes.household_id AND h.deleted_at IS NULL
                JOIN members m ON m.tenant_id = $1 AND m.household_id = h.id AND m.deleted_at IS NULL
              UNION ALL
              SELECT NULL::uuid, m.first_name || ' ' || m.last_name, m.id, m.first_name, m.last_name, m.birthdate, m.household_role
                FROM hits
                JOIN members m ON m.tenant_id = $1 AND m.id = hits.id AND m.deleted_at IS NULL
               WHERE hits.household_id IS NULL
            )
       SELECT p.household_id AS "householdId", p.household_name AS "householdName", p.id, p.first_name AS "firstName", p.last_name AS "lastName",
              date_part('year', age(current_date, p.birthdate))::int AS age,
              EXISTS (SELECT 1 FROM attendance a WHERE a.tenant_id = $1 AND a.event_id = $2 AND a.member_id = p.id) AS "checkedIn"
         FROM people p
        ORDER BY p.household_name, p.household_id, array_position(ARRAY['head', 'spouse', 'adult', 'child', 'other'], p.household_role), p.birthdate NULLS LAST, p.id`,
      [tenantId, eventId, param],
    );
  }
}
