import { Injectable } from '@nestjs/common';
import type { Language } from '../../common/i18n/language';
import { fetchPage, Page } from '../../common/lists/keyset-page';
import type { ListQuery } from '../../common/lists/list-query';
import { tenantScope } from '../../database/tenant-scope';
import { GIVEN_STATUSES, NET_GIVEN_SQL } from '../donations/donation.entity';
import type { Address } from '../members/member.entity';
import { StatementRunEntity } from './statement-run.entity';
import { StatementEntity, StatementTotal } from './statement.entity';
import { STATEMENT_LIST } from './statements.list';

/** The church's statement settings, defaults filled in. */
export interface StatementSettings {
  language: Language;
  timezone: string;
  address: Address | null;
  taxId: string | null;
  signerName: string | null;
  signerTitle: string | null;
}

export const DEFAULT_SETTINGS: StatementSettings = {
  language: 'es',
  timezone: 'UTC',
  address: null,
  taxId: null,
  signerName: null,
  signerTitle: null,
};

/** One statement to issue: a donor, or a household whose members gave (the givers in `donorIds`). */
export interface StatementUnit {
  recipientId: string;
  householdId: string | null;
  donorIds: string[];
}

export interface GiftRow {
  donor_id: string;
  /** The day received, in the settings' time zone. */
  received_on: string;
  fund: string;
  currency: string;
  amount: number;
  refunded: number;
  net: number;
}

export interface DonorRow {
  id: string;
  first_name: string;
  last_name: string;
  address: Address | null;
}

export interface HouseholdRow {
  id: string;
  name: string;
  address: Address | null;
  /** The primary contact's address, when the household has none. */
  contact_address: Address | null;
}

export interface IssuedStatement {
  id: string;
  runId: string;
  year: number;
  memberId: string | null;
  householdId: string | null;
  recipientName: string;
  totals: StatementTotal[];
  giftCount: number;
  pdf: Buffer;
  donorIds: string[];
}

/** The gifts a statement counts: those whose money the church kept (less refunds), to tax-deductible funds, received in the year. */
const GIFTS_OF_YEAR = `
  FROM donations d
  JOIN funds f ON f.tenant_id = d.tenant_id AND f.id = d.fund_id
 WHERE d.tenant_id = $1
   AND d.received_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)
   AND d.received_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
   AND d.status IN (${GIVEN_STATUSES.map((s) => `'${s}'`).join(', ')})
   AND f.tax_deductible`;

/**
 * The recipients of a year's statements: every donor with a positive net of counted gifts, a donor
 * of a (live) household grouped with the household's other givers. `$4`: only the units holding
 * one of these members (null: all). Ordered by recipient, so every run walks them alike.
 */
const UNITS_SQL = `
  WITH givers AS (
    SELECT d.donor_id, sum(${NET_GIVEN_SQL}) AS net ${GIFTS_OF_YEAR} AND d.donor_id IS NOT NULL
     GROUP BY d.donor_id
  ), units AS (
    SELECT coalesce(h.id, m.id) AS recipient_id, h.id AS household_id, array_agg(m.id ORDER BY m.id) AS donor_ids, sum(g.net) AS net
      FROM givers g
      JOIN members m ON m.tenant_id = $1 AND m.id = g.donor_id
      LEFT JOIN households h ON h.tenant_id = $1 AND h.id = m.household_id AND h.deleted_at IS NULL
     GROUP BY coalesce(h.id, m.id), h.id
  )
  SELECT recipient_id, household_id, donor_ids FROM units
   WHERE net > 0 AND ($4::uuid[] IS NULL OR donor_ids && $4::uuid[])
   ORDER BY recipient_id`;

const GIFTS_SQL = `
  SELECT d.donor_id, to_char(d.received_at AT TIME ZONE $3::text, 'YYYY-MM-DD') AS received_on, f.name AS fund, d.currency,
         d.amount::float8 AS amount, d.refunded_amount::float8 AS refunded, ${NET_GIVEN_SQL}::float8 AS net
  ${GIFTS_OF_YEAR} AND d.donor_id = ANY($4::uuid[])
   ORDER BY d.received_at, d.id`;

/** The module's only database surface. Every query names the tenant (RLS enforces it too). */
@Injectable()
export class StatementsRepository {
  // --- settings -------------------------------------------------------------------------------

  async settings(): Promise<StatementSettings> {
    const { manager, tenantId } = tenantScope();
    const [row] = await manager.query<
      {
        language: Language;
        timezone: string;
        address: Address | null;
        tax_id: string | null;
        signer_name: string | null;
        signer_title: string | null;
      }[]
    >(
      'SELECT language, timezone, address, tax_id, signer_name, signer_title FROM statement_settings WHERE tenant_id = $1',
      [tenantId],
    );
    return row
      ? {
          language: row.language,
          timezone: row.timezone,
          address: row.address,
          taxId: row.tax_id,
          signerName: row.signer_name,
          signerTitle: row.signer_title,
        }
      : { ...DEFAULT_SETTINGS };
  }

  async saveSettings(settings: StatementSettings): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(
      `INSERT INTO statement_settings (tenant_id, language, timezone, address, tax_id, signer_name, signer_title, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (tenant_id) DO UPDATE SET language = excluded.language, timezone = excluded.timezone, address = excluded.address, tax_id = excluded.tax_id,
         signer_name = excluded.signer_name, signer_title = excluded.signer_title, updated_at = now()`,
      [
        tenantId,
        settings.language,
        settings.timezone,
        settings.address === null ? null : JSON.stringify(settings.address),
        settings.taxId,
        settings.signerName,
        settings.signerTitle,
      ],
    );
  }

  async isKnownTimezone(name: string): Promise<boolean> {
    const rows = await tenantScope().manager.query<unknown[]>('SELECT 1 FROM pg_timezone_names WHERE name = $1', [
      name,
    ]);
    return rows.length > 0;
  }

  // --- runs -----------------------------------------------------------------------------------

  async insertRun(run: StatementRunEntity): Promise<void> {
    await tenantScope(StatementRunEntity).repo.insert(run);
  }

  async findRun(id: string): Promise<StatementRunEntity | null> {
    const { repo, tenantId } = tenantScope(StatementRunEntity);
    return repo.findOne({ where: { tenantId, id } });
  }

  async updateRun(id: string, changes: Partial<StatementRunEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(StatementRunEntity);
    await repo.update({ tenantId, id }, { ...changes, updatedAt: new Date() });
  }

  // --- the work of a run ------------------------------------------------------------------------

  async units(year: number, timezone: string, donorIds: string[] | null): Promise<StatementUnit[]> {
    const { manager, tenantId } = tenantScope();
    const rows = await manager.query<{ recipient_id: string; household_id: string | null; donor_ids: string[] }[]>(
      UNITS_SQL,
      [tenantId, year, timezone, donorIds],
    );
    return rows.map((r) => ({ recipientId: r.recipient_id, householdId: r.household_id, donorIds: r.donor_ids }));
  }

  /** The recipients this run has issued a statement to (what a resumed run skips). */
  async issuedBy(runId: string): Promise<Set<string>> {
    const { manager, tenantId } = tenantScope();
    const rows = await manager.query<{ recipient_id: string }[]>(
      'SELECT recipient_id FROM statements WHERE tenant_id = $1 AND run_id = $2',
      [tenantId, runId],
    );
    return new Set(rows.map((r) => r.recipient_id));
  }

  /**
   * Serializes the issuing of one year's statements in this church until the transaction ends: two
   * runs of a year never both give a new recipient an id (the id is printed in the PDF).
   */
  async lockYear(year: number): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('statements:' || $1 || ':' || $2, 0))`, [
      tenantId,
      year,
    ]);
  }

  /** The ids of the year's statements of these recipients (a re-issue keeps its id). */
  async statementIds(year: number, recipientIds: string[]): Promise<Map<string, string>> {
    const { manager, tenantId } = tenantScope();
    const rows = await manager.query<{ recipient_id: string; id: string }[]>(
      'SELECT recipient_id, id FROM statements WHERE tenant_id = $1 AND year = $2 AND recipient_id = ANY($3::uuid[])',
      [tenantId, year, recipientIds],
    );
    return new Map(rows.map((r) => [r.recipient_id, r.id]));
  }

  async gifts(year: number, timezone: string, donorIds: string[]): Promise<GiftRow[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query<GiftRow[]>(GIFTS_SQL, [tenantId, year, timezone, donorIds]);
  }

  async donors(ids: string[]): Promise<DonorRow[]> {
    const { manager, tenantId } = tenantScope();
    return manager.query<DonorRow[]>(
      'SELECT id, first_name, last_name, address FROM members WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
      [tenantId, ids],
    );
  }

  async households(ids: string[]): Promise<HouseholdRow[]> {
    if (ids.length === 0) return [];
    const { manager, tenantId } = tenantScope();
    return manager.query<HouseholdRow[]>(
      `SELECT h.id, h.name, h.address, pc.address AS contact_address
         FROM households h LEFT JOIN members pc ON pc.tenant_id = h.tenant_id AND pc.id = h.primary_contact_id
        WHERE h.tenant_id = $1 AND h.id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
  }

  /**
   * Issues statements: inserts each, or re-issues the year's statement of its recipient in place
   * (same id), and records whose gifts each lists. One statement per recipient and year, always.
   */
  async issue(statements: IssuedStatement[]): Promise<void> {
    if (statements.length === 0) return;
    const { manager, tenantId } = tenantScope();
    const params: unknown[] = [tenantId];
    const values = statements.map((s) => {
      const at = params.length;
      params.push(
        s.id,
        s.runId,
        s.year,
        s.memberId,
        s.householdId,
        s.recipientName,
        JSON.stringify(s.totals),
        s.giftCount,
        s.pdf,
      );
      const p = (i: number) => `$${at + i}`;
      return `($1, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}::jsonb, ${p(8)}, ${p(9)}, now(), now())`;
    });
    await manager.query(
      `INSERT INTO statements (tenant_id, id, run_id, year, member_id, household_id, recipient_name, totals, gift_count, pdf, created_at, updated_at)
       VALUES ${values.join(', ')}
       ON CONFLICT (tenant_id, year, recipient_id) DO UPDATE SET
         run_id = excluded.run_id, member_id = excluded.member_id, household_id = excluded.household_id, recipient_name = excluded.recipient_name,
         totals = excluded.totals, gift_count = excluded.gift_count, pdf = excluded.pdf, updated_at = excluded.updated_at`,
      params,
    );
    const ids = statements.map((s) => s.id);
    await manager.query('DELETE FROM statement_donors WHERE tenant_id = $1 AND statement_id = ANY($2::uuid[])', [
      tenantId,
      ids,
    ]);
    const pairs = statements.flatMap((s) => s.donorIds.map((donorId) => [s.id, donorId]));
    await manager.query(
      'INSERT INTO statement_donors (tenant_id, statement_id, member_id) SELECT $1, s, m FROM unnest($2::uuid[], $3::uuid[]) AS p(s, m)',
      [tenantId, pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  }

  // --- reading statements -----------------------------------------------------------------------

  list(query: ListQuery): Promise<Page<StatementEntity>> {
    const { repo, tenantId } = tenantScope(StatementEntity);
    const qb = repo.createQueryBuilder('s').where('s.tenant_id = :tenantId', { tenantId });
    return fetchPage(qb, query, STATEMENT_LIST);
  }

  /** The donors of each statement, by statement id, names included (one query for a page). */
  async donorsOf(
    statementIds: string[],
  ): Promise<Map<string, { id: string; first_name: string; last_name: string }[]>> {
    const byStatement = new Map<string, { id: string; first_name: string; last_name: string }[]>();
    if (statementIds.length === 0) return byStatement;
    const { manager, tenantId } = tenantScope();
    const rows = await manager.query<{ statement_id: string; id: string; first_name: string; last_name: string }[]>(
      `SELECT sd.statement_id, m.id, m.first_name, m.last_name
         FROM statement_donors sd JOIN members m ON m.tenant_id = sd.tenant_id AND m.id = sd.member_id
        WHERE sd.tenant_id = $1 AND sd.statement_id = ANY($2::uuid[])
        ORDER BY sd.statement_id, m.last_name, m.first_name, m.id`,
      [tenantId, statementIds],
    );
    for (const { statement_id, ...donor } of rows) {
      const list = byStatement.get(statement_id) ?? [];
      list.push(donor);
      byStatement.set(statement_id, list);
    }
    return byStatement;
  }

  async householdNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { manager, tenantId } = tenantScope();
    const rows = await manager.query<{ id: string; name: string }[]>(
      'SELECT id, name FROM households WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
      [tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async pdf(id: string): Promise<{ pdf: Buffer; year: number; updatedAt: Date } | null> {
    const { manager, tenantId } = tenantScope();
    const [row] = await manager.query<{ pdf: Buffer; year: number; updated_at: Date }[]>(
      'SELECT pdf, year, updated_at FROM statements WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return row ? { pdf: row.pdf, year: row.year, updatedAt: row.updated_at } : null;
  }
}
