import { AppError, FieldIssue } from '../errors/app-error';
import { isStorableText } from '../validation/text';
import { Cursor, decodeCursor } from './cursor';
import { DEFAULT_LIMIT, FilterDef, FilterValue, ListSpec, MAX_LIMIT, Operator, OPERATORS } from './list-spec';

export interface SortTerm {
  field: string;
  descending: boolean;
}

export interface FilterTerm {
  field: string;
  op: Operator;
  value: FilterValue | FilterValue[];
}

export interface ListQuery {
  limit: number;
  sort: SortTerm[];
  sortKey: string;
  cursor: Cursor | null;
  filters: FilterTerm[];
  /** `total=false` skips the total (null in the envelope). */
  withTotal: boolean;
}

const RESERVED = new Set(['cursor', 'limit', 'sort', 'total']);
// A field may have one dotted part (`custom_fields.shirt_size`).
const KEY = /^([a-z_][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?)(?:\[([a-z]+)\])?$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,15})?$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses `cursor`, `limit`, `sort` and `field[op]=value` filters against a resource's ListSpec.
 * Anything unknown or malformed is a 400 `invalid_parameter` listing every bad parameter.
 */
export function parseListQuery<T>(query: Record<string, unknown>, spec: ListSpec<T>): ListQuery {
  const issues: FieldIssue[] = [];
  const limit = parseLimit(query.limit, issues);
  const sort = parseSort(query.sort, spec, issues);
  const withTotal = query.total === undefined || query.total === 'true';
  if (query.total !== undefined && query.total !== 'true' && query.total !== 'false')
    issues.push({ field: 'total', issue: 'invalid_format', params: { format: 'true or false' } });
  const filters: FilterTerm[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key)) continue;
    const term = parseFilter(key, raw, spec, issues);
    if (term) filters.push(term);
  }
  if (issues.length)
    throw new AppError('invalid_parameter', { parameter: issues.map((i) => i.field).join(', ') }, issues);
  const sortKey = sort.map((s) => (s.descending ? '-' : '') + s.field).join(',');
  const cursor =
    query.cursor === undefined || query.cursor === ''
      ? null
      : decodeCursor(
          single(query.cursor, 'cursor'),
          sortKey,
          sort.map((s) => spec.sorts[s.field].type),
        );
  return { limit, sort, sortKey, cursor, filters, withTotal };
}

function single(raw: unknown, name: string): string {
  if (typeof raw !== 'string') throw AppError.invalidParameter(name, 'invalid');
  return raw;
}

function parseLimit(raw: unknown, issues: FieldIssue[]): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const n = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) {
    issues.push({ field: 'limit', issue: 'out_of_range', params: { min: 1, max: MAX_LIMIT } });
    return DEFAULT_LIMIT;
  }
  return n;
}

function parseSort<T>(raw: unknown, spec: ListSpec<T>, issues: FieldIssue[]): SortTerm[] {
  const text = raw === undefined || raw === '' ? spec.defaultSort : raw;
  if (typeof text !== 'string') {
    issues.push({ field: 'sort', issue: 'invalid' });
    return [];
  }
  const terms: SortTerm[] = [];
  for (const part of text.split(',')) {
    const descending = part.startsWith('-');
    const field = descending ? part.slice(1) : part;
    // Own keys only: `sort=constructor` must not find Object.prototype.constructor.
    if (!Object.hasOwn(spec.sorts, field))
      issues.push({ field: 'sort', issue: 'not_sortable', params: { values: Object.keys(spec.sorts).join(', ') } });
    else if (terms.some((t) => t.field === field)) issues.push({ field: 'sort', issue: 'invalid' });
    else terms.push({ field, descending });
  }
  return terms;
}

function parseFilter<T>(key: string, raw: unknown, spec: ListSpec<T>, issues: FieldIssue[]): FilterTerm | null {
  const match = KEY.exec(key);
  const def = match && Object.hasOwn(spec.filters, match[1]) ? spec.filters[match[1]] : undefined;
  if (!match || !def) {
    issues.push({ field: key, issue: 'not_filterable' });
    return null;
  }
  const field = match[1];
  const op = (match[2] ?? 'eq') as Operator;
  if (!OPERATORS.includes(op) || (op !== 'eq' && !def.ops.includes(op))) {
    issues.push({ field: key, issue: 'unknown_operator', params: { operator: match[2] ?? '' } });
    return null;
  }
  if (typeof raw !== 'string') {
    issues.push({ field: key, issue: 'invalid' });
    return null;
  }
  if (op === 'in') {
    const parts = raw.split(',');
    const values = parts.map((p) => parseValue(p, def));
    if (parts.length > 100 || values.some((v) => v === undefined)) {
      issues.push({ field: key, issue: 'invalid_format', params: { format: formatOf(def) } });
      return null;
    }
    return { field, op, value: values as FilterValue[] };
  }
  const value = parseValue(raw, def);
  if (value === undefined) {
    issues.push({
      field: key,
      issue: def.type === 'enum' ? 'one_of' : 'invalid_format',
      params: { format: formatOf(def), values: (def.values ?? []).join(', ') },
    });
    return null;
  }
  return { field, op, value };
}

function parseValue(raw: string, def: FilterDef): FilterValue | undefined {
  switch (def.type) {
    case 'string':
      return raw.length > 0 && raw.length <= 200 && isStorableText(raw) ? raw : undefined;
    case 'enum':
      return def.values?.includes(raw) ? raw : undefined;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    case 'integer':
      return /^-?\d{1,9}$/.test(raw) ? Number(raw) : undefined;
    case 'number':
      return NUMBER.test(raw) ? Number(raw) : undefined;
    case 'date':
      return DATE.test(raw) && isRealDate(raw) ? raw : undefined;
    case 'timestamp': {
      if (!ISO_TIMESTAMP.test(raw) || !isRealDate(raw.slice(0, 10))) return undefined;
      const date = new Date(DATE.test(raw) ? `${raw}T00:00:00Z` : raw);
      return Number.isNaN(date.getTime()) ? undefined : date;
    }
  }
}

let todayCache = { day: -1, text: '' };

/** Today (UTC) as YYYY-MM-DD, made once a day rather than once per row that asks. */
export function todayUtc(): string {
  const day = Math.floor(Date.now() / 86_400_000);
  if (todayCache.day !== day) todayCache = { day, text: new Date(day * 86_400_000).toISOString().slice(0, 10) };
  return todayCache.text;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A YYYY-MM-DD that names a day of the (proleptic Gregorian) calendar; arithmetic, no Date (bulk rows check hundreds). */
export function isRealDate(value: string): boolean {
  const m = YMD.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

function formatOf(def: FilterDef): string {
  return {
    string: 'text',
    enum: 'one of the listed values',
    boolean: 'true or false',
    integer: 'integer',
    number: 'number',
    date: 'YYYY-MM-DD',
    timestamp: 'ISO 8601',
  }[def.type];
}
