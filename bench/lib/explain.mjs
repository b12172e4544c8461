// The SQL the API emits for a member or donation list, captured from the build under test (TypeORM
// with a capturing logger, the real repository and list parser), then EXPLAIN (ANALYZE) of each
// statement as church_app inside the church's transaction, exactly as a request runs it.
import { config, requireFromDist, requireFromRepo } from './util.mjs';

/**
 * Runs the API's list code for `rawQuery` (as Express's simple parser hands it) and returns the
 * SELECTs of the page and the count. As MembersService.list does first: the church's
 * `custom_fields.<key>` filters join the spec (CustomFieldsService.memberListSpec) and a `tag`
 * filter's names become ids (MemberTagRefs.resolveTagFilter); their own queries are not returned.
 */
export async function captureListSql(tenantId, rawQuery) {
  const { MembersRepository } = requireFromDist('modules/members/members.repository.js');
  const { parseListQuery } = requireFromDist('common/lists/list-query.js');
  const { MEMBER_LIST } = requireFromDist('modules/members/members.list.js');
  const keys = Object.keys(rawQuery);
  const customFields = keys.some((k) => k.startsWith('custom_fields.')) ? customFieldsService() : null;
  const tagRefs = keys.some((k) => k === 'tag') ? memberTagRefs() : null;
  return captureSql(tenantId, async (captured) => {
    const spec = customFields ? await customFields.memberListSpec(MEMBER_LIST, rawQuery) : MEMBER_LIST;
    const query = parseListQuery(rawQuery, spec);
    if (tagRefs) await tagRefs.resolveTagFilter(query);
    captured.length = 0; // only what the list itself runs
    // A ListTotals that never has a cached total: the count statement is always emitted (and explained).
    await new MembersRepository({ slot: () => undefined, invalidate: () => undefined }).list(query, undefined, spec);
  });
}

/** The page and count SELECTs DonationsRepository.list emits for `rawQuery` (no cached total: the count is always run). */
export async function captureDonationListSql(tenantId, rawQuery) {
  const { DonationsRepository } = requireFromDist('modules/donations/donations.repository.js');
  const { parseListQuery } = requireFromDist('common/lists/list-query.js');
  const { DONATION_LIST } = requireFromDist('modules/donations/donations.list.js');
  return captureSql(tenantId, async (captured) => {
    captured.length = 0; // not the transaction's set_config
    await new DonationsRepository().list(parseListQuery(rawQuery, DONATION_LIST), undefined);
  });
}

/** The page SELECT ChangesRepository.feed emits for a cursor (`after`: {position, seq} as bigints), `types` and `limit` (scenario 18). */
export async function captureFeedSql(tenantId, after, types, limit) {
  const { ChangesRepository } = requireFromDist('modules/changes/changes.repository.js');
  return captureSql(tenantId, async (captured) => {
    captured.length = 0; // not the transaction's set_config
    await new ChangesRepository().feed(after, types, limit);
  });
}

/**
 * The writes `write(repository)` makes through the build's MembersRepository (insert of
 * MemberEntity-shaped objects: firstName, campusId, createdAt, …; update of one member), run in a
 * transaction that is rolled back (scenario 17).
 */
export async function captureMemberWriteSql(tenantId, write) {
  const { MembersRepository } = requireFromDist('modules/members/members.repository.js');
  return captureSql(
    tenantId,
    async (captured) => {
      captured.length = 0;
      await write(new MembersRepository({ slot: () => undefined, invalidate: () => undefined }));
    },
    { kind: /^\s*(INSERT|UPDATE|DELETE)/i, rollback: true },
  );
}

const ROLLBACK = new Error('bench: roll back');

/**
 * Runs `fn(captured)` in the church's transaction and TenantContext on a capturing TypeORM data
 * source of the build; the statements of `kind` it ran (SELECTs by default; `rollback`: the transaction is rolled back).
 */
async function captureSql(tenantId, fn, { kind = /^\s*SELECT/i, rollback = false } = {}) {
  requireFromRepo('reflect-metadata');
  const { DataSource } = requireFromRepo('typeorm');
  const { dataSourceOptions } = requireFromDist('database/data-source-options.js');
  const { TenantContext } = requireFromDist('common/context/tenant-context.js');
  const { APP_ROLE } = requireFromDist('database/app-role.js');
  const captured = [];
  const logger = {
    logQuery: (query, parameters) => captured.push({ sql: query, params: parameters ?? [] }),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  const options = dataSourceOptions(config.databaseUrl, 1);
  const source = new DataSource({ ...options, logging: ['query'], logger });
  await source.initialize();
  try {
    await source.transaction(async (manager) => {
      await manager.query(`SELECT set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
        APP_ROLE,
        tenantId,
      ]);
      await TenantContext.run({ tenantId, manager, actor: { kind: 'worker' }, lang: 'es', afterCommit: [] }, () =>
        fn(captured),
      );
      if (rollback) throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  } finally {
    await source.destroy();
  }
  return captured.filter((q) => kind.test(q.sql));
}

/** The build's CustomFieldsService on its repository (memberListSpec needs nothing else). */
function customFieldsService() {
  const { CustomFieldsService } = requireFromDist('modules/custom-fields/custom-fields.service.js');
  const { CustomFieldsRepository } = requireFromDist('modules/custom-fields/custom-fields.repository.js');
  return new CustomFieldsService(new CustomFieldsRepository(), null);
}

/** The build's MemberTagRefs on TagsService and its repository (resolveTagFilter needs nothing else). */
function memberTagRefs() {
  const { MemberTagRefs } = requireFromDist('modules/members/member-tag-refs.js');
  const { TagsService } = requireFromDist('modules/tags/tags.service.js');
  const { TagsRepository } = requireFromDist('modules/tags/tags.repository.js');
  return new MemberTagRefs(new TagsService(new TagsRepository(), null, null));
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of one captured statement as the app role, in the church's transaction;
 * `textOptions`: the options of the text form kept with it (scenario 18 keeps the buffers; null: none).
 */
export async function explain(tenantId, statement, textOptions = 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON') {
  const { Client } = requireFromRepo('pg');
  const client = new Client({
    connectionString: config.databaseUrl,
    application_name: 'church-bench-explain',
    options: '-c TimeZone=UTC',
  });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('role', 'church_app', true), set_config('app.tenant_id', $1, true)`, [
      tenantId,
    ]);
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`, statement.params);
    // A write runs once only (textOptions null): a second run would meet the first's rows.
    const text = textOptions
      ? (await client.query(`EXPLAIN (${textOptions}) ${statement.sql}`, statement.params)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n')
      : null;
    await client.query('ROLLBACK');
    return { json: rows[0]['QUERY PLAN'][0], text };
  } finally {
    await client.end();
  }
}

/**
 * Checks a plan: no Seq Scan anywhere, and no Sort (full sort) reading more than `maxSortRows`
 * rows. An Incremental Sort sorts only groups that share the presorted key; it is reported with
 * its input size and group count and judged by its average group size.
 */
export function judgePlan(planJson, maxSortRows = 10_000) {
  const problems = [];
  const nodes = [];
  let largestSort = 0;
  // Rows a scan read and threw away (its Filter): a walk of a whole index range filtered row by
  // row costs what a Seq Scan does without being one.
  let largestDiscard = 0;
  const walk = (node) => {
    const type = node['Node Type'];
    const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
    largestDiscard = Math.max(largestDiscard, (node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1));
    nodes.push(
      `${type}${node['Index Name'] ? ` on ${node['Index Name']}` : node['Relation Name'] ? ` on ${node['Relation Name']}` : ''} (${rows} rows)`,
    );
    if (type === 'Seq Scan') problems.push(`Seq Scan on ${node['Relation Name']} (${rows} rows)`);
    if (type === 'Sort' || type === 'Incremental Sort') {
      const child = node.Plans?.[0];
      const input = child ? (child['Actual Rows'] ?? 0) * (child['Actual Loops'] ?? 1) : rows;
      if (type === 'Sort') largestSort = Math.max(largestSort, input);
      if (type === 'Sort' && input > maxSortRows)
        problems.push(`Sort over ${input} rows (${node['Sort Key']?.join(', ')})`);
      if (type === 'Incremental Sort') {
        const groups =
          (node['Full-sort Groups']?.['Group Count'] ?? 0) + (node['Pre-sorted Groups']?.['Group Count'] ?? 0);
        const perGroup = groups ? input / groups : input;
        if (perGroup > maxSortRows) problems.push(`Incremental Sort with groups of ~${Math.round(perGroup)} rows`);
      }
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(planJson.Plan);
  return {
    ok: problems.length === 0,
    problems,
    nodes,
    largest_sort: largestSort,
    largest_discard: largestDiscard,
    execution_ms: planJson['Execution Time'],
    planning_ms: planJson['Planning Time'],
  };
}
