import type { ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { BoundedMap } from '../caching/bounded-map';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { encodeCursor } from './cursor';
import { ListSpec, Operator, SortDef } from './list-spec';
import type { ListQuery } from './list-query';

/** A total cached for this request (see ListTotals); absent: count every time. */
export interface CachedTotal {
  total: number | null;
  store(total: number): void;
}

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
  total: number | null;
  /** The `computed` values of each row, by row id (absent without `computed`). */
  computed?: Map<string, Record<string, unknown>>;
}

const SQL_OP: Record<Exclude<Operator, 'in'>, string> = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

interface Column {
  expr: string;
  desc: boolean;
  nullable: boolean;
}

/**
 * One page of a keyset-paginated list plus the exact total. `qb` selects the live rows of the
 * current tenant; this adds the filters, the keyset condition (rows strictly after the cursor, in
 * the sort order, id as tie-breaker), the ORDER BY and LIMIT. Every sort has an index
 * `(tenant_id, <column>, id)`.
 */
export interface PageOptions {
  totals?: CachedTotal;
  /** Values computed per row by the page query itself (name -> SQL over the alias), so that they cost no second round trip. */
  computed?: Record<string, string>;
  /**
   * Conditions implied by the filters that only help the page query find its rows along the sort
   * index (the count is left as it is): they must not change which rows match.
   */
  pageBounds?: (alias: string, param: (value: unknown) => string) => string[];
  /**
   * Count without `qb`'s joins: for joins that only bring each row's columns (one-to-one, never
   * filtering), which the count would otherwise plan as a join over the joined table.
   */
  countWithoutJoins?: boolean;
  /**
   * Names `qb` as the caller builds it (its selects, joins, conditions, locks and parameters'
   * names: everything but the parameters' values). The page's SQL is then made once per shape and
   * request shape (filters, sort, cursor, limit) and reused; two calls with one name must build
   * the same `qb` but for its parameters' values. Only for a query of one entity with plain columns.
   */
  shape?: string;
}

export async function fetchPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: ListQuery,
  spec: ListSpec<T>,
  options: PageOptions = {},
): Promise<Page<T>> {
  const { totals } = options;
  const alias = qb.alias;
  const params: ObjectLiteral = {};
  let n = 0;
  const param = (value: unknown): string => {
    const name = `lq${n++}`;
    params[name] = value;
    return Array.isArray(value) ? `(:...${name})` : `:${name}`;
  };

  const filters = query.filters.map((term) => {
    const def = spec.filters[term.field];
    return def.sql
      ? def.sql(alias, term.op, term.value, param)
      : columnCondition(`${alias}.${def.column}`, term.op, term.value, param);
  });
  // The count (the filters' conditions and parameters only) is built only when it will run: not
  // when the total is cached or not asked for.
  const counting = query.withTotal && (totals?.total ?? null) === null;
  const countQb = counting ? countBuilder(qb, filters, { ...params }, options.countWithoutJoins) : undefined;

  const columns: Column[] = query.sort.map((term) => {
    const def: SortDef<T> = spec.sorts[term.field];
    return {
      expr: `${alias}.${def.column}`,
      desc: term.descending !== Boolean(def.inverted),
      nullable: Boolean(def.nullable),
    };
  });
  const idDesc = columns[columns.length - 1].desc;
  columns.push({ expr: `${alias}.id`, desc: idDesc, nullable: false });
  const conditions = [...filters, ...(options.pageBounds?.(alias, param) ?? [])];
  if (query.cursor) conditions.push(keysetCondition(columns, [...query.cursor.values, query.cursor.id], param));
  const parts: PageParts = {
    conditions,
    order: columns.map((c) => [c.expr, c.desc ? 'DESC' : 'ASC']),
    limit: query.limit + 1,
    computed: Object.entries(options.computed ?? {}),
    params,
  };

  let rows: T[];
  let computed: Map<string, Record<string, unknown>> | undefined;
  // Without joins TypeORM maps raw row i to entity i; plain columns are hydrated here, without its
  // general transformer (grouping by primary key, relations), which costs a list page ~5% of its CPU.
  const hydrate = options.computed || options.shape !== undefined ? plainHydrator(qb) : null;
  if (hydrate) {
    const raw =
      options.shape !== undefined
        ? await runCachedPage(qb, parts, options.shape)
        : await build(qb, parts).getRawMany<Record<string, unknown>>();
    rows = raw.map(hydrate);
    computed = options.computed ? computedOf(raw, alias, parts) : undefined;
  } else if (options.computed) {
    const both = await build(qb, parts).getRawAndEntities<Record<string, unknown>>();
    rows = both.entities;
    computed = computedOf(both.raw, alias, parts);
  } else {
    rows = await build(qb, parts).getMany();
  }
  let total = query.withTotal ? (totals?.total ?? null) : null;
  if (countQb) {
    total = (await countQb.getRawOne<{ total: number }>())?.total ?? 0;
    totals?.store(total);
  }
  const hasMore = rows.length > query.limit;
  if (hasMore) rows.pop();
  const last = rows[rows.length - 1];
  const nextCursor =
    hasMore && last
      ? encodeCursor({
          sort: query.sortKey,
          values: query.sort.map((t) => spec.sorts[t.field].value(last)),
          id: last.id as string,
        })
      : null;
  return computed ? { rows, nextCursor, total, computed } : { rows, nextCursor, total };
}

/** What a page adds to the caller's query builder. */
interface PageParts {
  conditions: string[];
  order: [string, 'ASC' | 'DESC'][];
  limit: number;
  /** Values computed per row: [name, SQL]. */
  computed: [string, string][];
  /** The parameters the conditions name (lq0, lq1, …). */
  params: ObjectLiteral;
}

function countBuilder<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  filters: string[],
  params: ObjectLiteral,
  withoutJoins?: boolean,
): SelectQueryBuilder<T> {
  const count = qb.clone();
  for (const condition of filters) count.andWhere(condition);
  count.setParameters(params).select('count(*)::int', 'total').orderBy();
  if (withoutJoins) count.expressionMap.joinAttributes = [];
  return count;
}

/** `qb` with the page's conditions, order, limit and computed values. */
function build<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, parts: PageParts): SelectQueryBuilder<T> {
  for (const condition of parts.conditions) qb.andWhere(condition);
  qb.setParameters(parts.params);
  parts.order.forEach(([expr, direction], i) =>
    i === 0 ? qb.orderBy(expr, direction) : qb.addOrderBy(expr, direction),
  );
  qb.limit(parts.limit);
  for (const [name, sql] of parts.computed) qb.addSelect(sql, name);
  return qb;
}

function computedOf(
  raw: Record<string, unknown>[],
  alias: string,
  parts: PageParts,
): Map<string, Record<string, unknown>> {
  const names = parts.computed.map(([name]) => name);
  return new Map(raw.map((r) => [String(r[`${alias}_id`]), Object.fromEntries(names.map((n) => [n, r[n]]))]));
}

/** Where each `$n` of a cached page statement takes its value from: a parameter, or one element of an expanded array. */
interface Slot {
  name: string;
  index?: number;
}

const PAGE_STATEMENTS = 2_000;
const pageStatements = new BoundedMap<string, { sql: string; slots: Slot[] }>(PAGE_STATEMENTS);

/**
 * The page's raw rows, its SQL made by the query builder once per shape (the caller's `shape` and
 * the page's parts, but not the parameters' values) and then reused: building the SQL (the select
 * list, property names, parameters) costs more than the rest of a list request's handler.
 */
async function runCachedPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  parts: PageParts,
  shape: string,
): Promise<Record<string, unknown>[]> {
  const values = { ...qb.getParameters(), ...parts.params };
  // Arrays expand to one placeholder per element: their lengths are part of the SQL's shape.
  const lengths = Object.entries(values).flatMap(([name, v]) => (Array.isArray(v) ? [name, v.length] : []));
  const key = JSON.stringify([shape, parts.conditions, parts.order, parts.limit, parts.computed, lengths]);
  let statement = pageStatements.get(key);
  if (!statement) {
    const sql = build(qb, parts).getQuery();
    statement = { sql: '', slots: [] };
    // TypeORM's own placeholder numbering, run on markers that name where each value comes from.
    const markers = Object.fromEntries(
      Object.entries(qb.getParameters()).map(([name, v]) => [
        name,
        Array.isArray(v)
          ? Object.assign(
              v.map((_, index): Slot => ({ name, index })),
              { whole: name },
            )
          : { name },
      ]),
    );
    const [text, slots] = qb.connection.driver.escapeQueryWithParameters(sql, markers);
    statement.sql = text;
    statement.slots = (slots as (Slot | (Slot[] & { whole: string }))[]).map((s) =>
      Array.isArray(s) ? { name: s.whole } : s,
    );
    pageStatements.set(key, statement);
  }
  const args = statement.slots.map(({ name, index }) =>
    index === undefined ? (values[name] as unknown) : (values[name] as unknown[])[index],
  );
  const own = (qb as unknown as { queryRunner?: QueryRunner }).queryRunner;
  const runner = own ?? qb.connection.createQueryRunner();
  try {
    return (await runner.query(statement.sql, args)) as Record<string, unknown>[];
  } finally {
    if (!own) await runner.release();
  }
}

function columnCondition(expr: string, op: Operator, value: unknown, param: (v: unknown) => string): string {
  if (op === 'in') return `${expr} IN ${param(value)}`;
  return `${expr} ${SQL_OP[op]} ${param(value)}`;
}

/**
 * Rows strictly after `values` in the ORDER BY of `columns` (PostgreSQL's default: NULLS LAST
 * ascending, NULLS FIRST descending). A uniform direction over non-null columns is one row
 * comparison, which the index answers as a range scan.
 */
function keysetCondition(columns: Column[], values: unknown[], param: (v: unknown) => string): string {
  const uniform = columns.every((c) => c.desc === columns[0].desc && !c.nullable) && values.every((v) => v !== null);
  if (uniform) {
    const left = columns.map((c) => c.expr).join(', ');
    const right = values.map((v) => param(v)).join(', ');
    return `(${left}) ${columns[0].desc ? '<' : '>'} (${right})`;
  }
  const alternatives: string[] = [];
  // A redundant bound on the leading column lets the index start at the cursor instead of filtering up to it.
  const bound = leadingBound(columns[0], values[0], param);
  for (let i = 0; i < columns.length; i++) {
    const after = strictlyAfter(columns[i], values[i], param);
    if (after === 'FALSE') continue;
    const equal = columns
      .slice(0, i)
      .map((c, j) => (values[j] === null ? `${c.expr} IS NULL` : `${c.expr} = ${param(values[j])}`));
    alternatives.push([...equal, after].join(' AND '));
  }
  if (!alternatives.length) return 'FALSE';
  const expansion = `(${alternatives.map((a) => `(${a})`).join(' OR ')})`;
  return bound ? `(${bound} AND ${expansion})` : expansion;
}

function leadingBound(column: Column, value: unknown, param: (v: unknown) => string): string | null {
  if (value === null) return column.desc ? null : `${column.expr} IS NULL`;
  if (column.desc) return `${column.expr} <= ${param(value)}`;
  return column.nullable ? null : `${column.expr} >= ${param(value)}`;
}

function strictlyAfter(column: Column, value: unknown, param: (v: unknown) => string): string {
  if (value === null) return column.desc ? `${column.expr} IS NOT NULL` : 'FALSE';
  const cmp = `${column.expr} ${column.desc ? '<' : '>'} ${param(value)}`;
  return column.nullable && !column.desc ? `(${cmp} OR ${column.expr} IS NULL)` : cmp;
}

/** Column types whose values TypeORM's driver hands on unchanged (without a transformer): set as they come. */
const AS_READ = new Set<unknown>(['text', 'uuid', 'jsonb', 'json', 'varchar', 'character varying']);

interface PlainColumn {
  column: ColumnMetadata;
  key: string;
  /** Set as read (AS_READ), not through the driver's conversion. */
  direct: boolean;
}

const plainColumns = new WeakMap<EntityMetadata, Map<string, PlainColumn[]>>();

/**
 * Raw row -> entity for a query of one entity with plain columns only (no joins, relations,
 * embedded columns, inheritance or after-load hooks), as TypeORM's transformer does it: each column's value through the driver
 * (dates, JSON, transformers). Null when the query is not that simple.
 */
function plainHydrator<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
): ((raw: Record<string, unknown>) => T) | null {
  const map = qb.expressionMap;
  const metadata = map.mainAlias?.hasMetadata ? map.mainAlias.metadata : undefined;
  if (!metadata || map.joinAttributes.length || metadata.relations.length || metadata.embeddeds.length) return null;
  if (metadata.childEntityMetadatas.length || metadata.afterLoadListeners.length || qb.connection.subscribers.length)
    return null; // inheritance, or something to call after loading
  if (!map.selects.some((s) => s.selection === qb.alias)) return null; // every column selected
  const driver = qb.connection.driver;
  let byAlias = plainColumns.get(metadata);
  if (!byAlias) plainColumns.set(metadata, (byAlias = new Map<string, PlainColumn[]>()));
  let columns = byAlias.get(qb.alias);
  if (!columns)
    byAlias.set(
      qb.alias,
      (columns = metadata.columns
        .filter((c) => !c.isVirtual)
        .map((column) => ({
          column,
          key: `${qb.alias}_${column.databaseName}`,
          direct: AS_READ.has(column.type) && !column.transformer && !column.isArray,
        }))),
    );
  return (raw) => {
    const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
    for (const { column, key, direct } of columns) {
      const value = raw[key];
      if (value === undefined) continue;
      if (direct) (entity as Record<string, unknown>)[column.propertyName] = value;
      else column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
    }
    return entity;
  };
}
