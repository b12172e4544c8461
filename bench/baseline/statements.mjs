// The baseline of scenario 10: a plain node process issuing one church's statements for a year, in
// a loop, with the same queries as the API's statements job (src/modules/statements/
// statements.repository.ts, statement-run.job.ts) on one pg client, and the same PDFs: the build's
// own buildStatement and renderStatementPdf (pure functions: the document from the rows, pdfkit).
// No framework, no job system (no background_jobs row, no BullMQ progress, no lease).
//
//   run row (as POST /v1/statements inserts it); plan: the run, the settings, the recipients, what
//   the run has issued, the run marked running, the church's name; then per batch of 20 in one
//   transaction: the year's lock, the recipients' statement ids, their gifts, donors and
//   households, the PDFs, the statements upserted with their donors, the run's progress; the run done.
//
// Long-lived like the API's worker (warm after the first run): started by the harness with an IPC
// channel, it sends {ready, backendPid}, then for each {cmd: 'run', tenantId, year} one run and
// {run_id, statements}; {cmd: 'stop'} ends it.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const require = createRequire(join(repoRoot, 'package.json'));
const pg = require('pg');
const fromBuild = (path) => require(join(repoRoot, 'bench', '.build', 'dist', path));
const { newUuid, toPublicId, ID_PREFIX } = fromBuild('common/ids/id.js');
const { buildStatement } = fromBuild('modules/statements/statement-builder.js');
const { renderStatementPdf } = fromBuild('modules/statements/pdf/statement-pdf.js');
const { todayIn } = fromBuild('modules/statements/pdf/statement-format.js');

const PER_BATCH = 20;
const DEFAULT_SETTINGS = {
  language: 'es',
  timezone: 'UTC',
  address: null,
  taxId: null,
  signerName: null,
  signerTitle: null,
};

const NET = `(CASE WHEN d.status IN ('succeeded', 'partially_refunded', 'refunded') THEN d.amount - d.refunded_amount ELSE 0 END)`;
const GIFTS_OF_YEAR = `
  FROM donations d
  JOIN funds f ON f.tenant_id = d.tenant_id AND f.id = d.fund_id
 WHERE d.tenant_id = $1
   AND d.received_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)
   AND d.received_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
   AND d.status IN ('succeeded', 'partially_refunded', 'refunded')
   AND f.tax_deductible`;
const UNITS_SQL = `
  WITH givers AS (
    SELECT d.donor_id, sum(${NET}) AS net ${GIFTS_OF_YEAR} AND d.donor_id IS NOT NULL
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
         d.amount::float8 AS amount, d.refunded_amount::float8 AS refunded, ${NET}::float8 AS net
  ${GIFTS_OF_YEAR} AND d.donor_id = ANY($4::uuid[])
   ORDER BY d.received_at, d.id`;
const UPDATE_RUN = `UPDATE statement_runs SET status = $3, total = $4, done = $5, last_error = $6, finished_at = $7, updated_at = $8 WHERE tenant_id = $1 AND id = $2`;

const client = new pg.Client({
  connectionString: process.env.DATABASE_URL,
  application_name: 'church-bench-statements',
  options: '-c TimeZone=UTC',
});
await client.connect();

async function inTenant(TENANT, fn) {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT set_config('role', 'church_app', true), set_config('app.tenant_id', $1, true)`, [
      TENANT,
    ]);
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

const q = async (sql, params) => (await client.query(sql, params)).rows;

/** One run: every statement of `YEAR` for the church `TENANT`. */
async function runStatements(TENANT, YEAR) {
  // POST /v1/statements: the run row.
  const runId = newUuid();
  const now = new Date();
  await inTenant(TENANT, () =>
    q(
      `INSERT INTO statement_runs (tenant_id, id, year, donor_ids, status, total, done, last_error, created_at, updated_at, finished_at) VALUES ($1, $2, $3, NULL, 'queued', NULL, 0, NULL, $4, $4, NULL)`,
      [TENANT, runId, YEAR, now],
    ),
  );

  // The plan.
  const plan = await inTenant(TENANT, async () => {
    const [run] = await q(
      'SELECT tenant_id, id, year, donor_ids, status, total, done, last_error, created_at, updated_at, finished_at FROM statement_runs WHERE tenant_id = $1 AND id = $2 LIMIT 1',
      [TENANT, runId],
    );
    const [row] = await q(
      'SELECT language, timezone, address, tax_id, signer_name, signer_title FROM statement_settings WHERE tenant_id = $1',
      [TENANT],
    );
    const settings = row
      ? {
          language: row.language,
          timezone: row.timezone,
          address: row.address,
          taxId: row.tax_id,
          signerName: row.signer_name,
          signerTitle: row.signer_title,
        }
      : { ...DEFAULT_SETTINGS };
    const units = (await q(UNITS_SQL, [TENANT, run.year, settings.timezone, run.donor_ids])).map((r) => ({
      recipientId: r.recipient_id,
      householdId: r.household_id,
      donorIds: r.donor_ids,
    }));
    const issued = new Set(
      (await q('SELECT recipient_id FROM statements WHERE tenant_id = $1 AND run_id = $2', [TENANT, runId])).map(
        (r) => r.recipient_id,
      ),
    );
    const done = units.filter((u) => issued.has(u.recipientId)).length;
    await q(UPDATE_RUN, [TENANT, runId, 'running', units.length, done, null, null, new Date()]);
    const [church] = await q('SELECT name FROM tenants WHERE id = $1', [TENANT]);
    return { run, settings, units, issued, churchName: church?.name ?? '' };
  });

  const total = plan.units.length;
  let done = plan.units.filter((u) => plan.issued.has(u.recipientId)).length;
  const pending = plan.units.filter((u) => !plan.issued.has(u.recipientId));
  for (let i = 0; i < pending.length; i += PER_BATCH) {
    const units = pending.slice(i, i + PER_BATCH);
    await inTenant(TENANT, async () => {
      await q(`SELECT pg_advisory_xact_lock(hashtextextended('statements:' || $1 || ':' || $2, 0))`, [TENANT, YEAR]);
      const donorIds = [...new Set(units.flatMap((u) => u.donorIds))];
      const householdIds = units.map((u) => u.householdId).filter((id) => id !== null);
      const ids = new Map(
        (
          await q(
            'SELECT recipient_id, id FROM statements WHERE tenant_id = $1 AND year = $2 AND recipient_id = ANY($3::uuid[])',
            [TENANT, YEAR, units.map((u) => u.recipientId)],
          )
        ).map((r) => [r.recipient_id, r.id]),
      );
      const gifts = await q(GIFTS_SQL, [TENANT, YEAR, plan.settings.timezone, donorIds]);
      const donors = new Map(
        (
          await q(
            'SELECT id, first_name, last_name, address FROM members WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
            [TENANT, donorIds],
          )
        ).map((d) => [d.id, d]),
      );
      const households = new Map(
        (householdIds.length
          ? await q(
              `SELECT h.id, h.name, h.address, pc.address AS contact_address
                 FROM households h LEFT JOIN members pc ON pc.tenant_id = h.tenant_id AND pc.id = h.primary_contact_id
                WHERE h.tenant_id = $1 AND h.id = ANY($2::uuid[])`,
              [TENANT, householdIds],
            )
          : []
        ).map((h) => [h.id, h]),
      );
      const unitOf = new Map(units.flatMap((u) => u.donorIds.map((d) => [d, u.recipientId])));
      const giftsOf = new Map(units.map((u) => [u.recipientId, []]));
      for (const gift of gifts) giftsOf.get(unitOf.get(gift.donor_id))?.push(gift);
      const issuedOn = todayIn(plan.settings.timezone);
      const params = [TENANT];
      const values = [];
      const pairs = [];
      const statementIds = [];
      for (const unit of units) {
        const id = ids.get(unit.recipientId) ?? newUuid();
        statementIds.push(id);
        const unitGifts = giftsOf.get(unit.recipientId);
        const parts = buildStatement(
          unit,
          { year: YEAR, churchName: plan.churchName, settings: plan.settings },
          donors,
          households,
          unitGifts,
        );
        const pdf = await renderStatementPdf({
          ...parts.document,
          number: toPublicId(ID_PREFIX.statement, id),
          issuedOn,
        });
        const at = params.length;
        params.push(
          id,
          runId,
          YEAR,
          unit.householdId ? null : unit.recipientId,
          unit.householdId,
          parts.recipientName,
          JSON.stringify(parts.totals),
          unitGifts.length,
          pdf,
        );
        const p = (k) => `$${at + k}`;
        values.push(
          `($1, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}::jsonb, ${p(8)}, ${p(9)}, now(), now())`,
        );
        for (const donorId of unit.donorIds) pairs.push([id, donorId]);
      }
      await q(
        `INSERT INTO statements (tenant_id, id, run_id, year, member_id, household_id, recipient_name, totals, gift_count, pdf, created_at, updated_at)
         VALUES ${values.join(', ')}
         ON CONFLICT (tenant_id, year, recipient_id) DO UPDATE SET
           run_id = excluded.run_id, member_id = excluded.member_id, household_id = excluded.household_id, recipient_name = excluded.recipient_name,
           totals = excluded.totals, gift_count = excluded.gift_count, pdf = excluded.pdf, updated_at = excluded.updated_at`,
        params,
      );
      await q('DELETE FROM statement_donors WHERE tenant_id = $1 AND statement_id = ANY($2::uuid[])', [
        TENANT,
        statementIds,
      ]);
      await q(
        'INSERT INTO statement_donors (tenant_id, statement_id, member_id) SELECT $1, s, m FROM unnest($2::uuid[], $3::uuid[]) AS p(s, m)',
        [TENANT, pairs.map((x) => x[0]), pairs.map((x) => x[1])],
      );
      await q(UPDATE_RUN, [TENANT, runId, 'running', total, done + units.length, null, null, new Date()]);
    });
    done += units.length;
  }
  await inTenant(TENANT, () => q(UPDATE_RUN, [TENANT, runId, 'done', total, done, null, new Date(), new Date()]));
  return { run_id: runId, statements: total };
}

const [{ pid: backendPid }] = await q('SELECT pg_backend_pid() AS pid');
process.on('message', async (message) => {
  if (message.cmd === 'stop') {
    await client.end();
    process.exit(0);
  }
  if (message.cmd === 'run') {
    try {
      process.send(await runStatements(message.tenantId, message.year));
    } catch (error) {
      process.send({ error: String(error.stack ?? error) });
    }
  }
});
process.send({ ready: true, backendPid });
