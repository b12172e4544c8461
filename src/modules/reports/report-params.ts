import { AppError, FieldIssue } from '../../common/errors/app-error';
import { isRealDate } from '../../common/lists/list-query';
import { CURRENCY_CODES, isCurrency } from '../../common/money/currencies';

export const GIVING_GROUPS = ['fund', 'campus', 'month', 'week'] as const;
export const ATTENDANCE_GROUPS = ['event', 'campus', 'week'] as const;
export const GROWTH_GROUPS = ['month'] as const;

export type GivingGroup = (typeof GIVING_GROUPS)[number];
export type AttendanceGroup = (typeof ATTENDANCE_GROUPS)[number];

/** The dates earliest and latest a report may span (gifts are received from 1900 on). */
const MIN_DATE = '1900-01-01';
const MAX_DATE = '9999-12-30';

/** Where `params.timezone` came from: the church's settings, its first campus with a time zone, or neither (UTC). */
export type TimezoneSource = 'settings' | 'campus' | 'default';

export interface ReportTimezone {
  timezone: string;
  source: TimezoneSource;
}

export interface DateRange {
  from: string;
  to: string;
}

/** The query of a report: only the parameters it names; anything else is a 400 (never ignored). */
export function readQuery(
  query: Record<string, unknown>,
  allowed: readonly string[],
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const issues: FieldIssue[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) {
      issues.push({ field: name, issue: 'unknown_field' });
      continue;
    }
    if (typeof value !== 'string') {
      issues.push({ field: name, issue: 'invalid_type', params: { type: 'string' } });
      continue;
    }
    out[name] = value;
  }
  if (issues.length) throw new AppError('invalid_parameter', { parameter: issues[0].field }, issues);
  return out;
}

export function readGroupBy<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw AppError.invalidParameter('group_by', 'one_of', { values: allowed.join(', ') });
  return value as T;
}

export function readCurrency(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isCurrency(value)) throw AppError.invalidParameter('currency', 'one_of', { values: CURRENCY_CODES.join(', ') });
  return value;
}

/**
 * `from` and `to`, both included, as YYYY-MM-DD dates of the church's time zone. Defaults: `to` is
 * today there and `from` the first day of the month eleven months before (the last 12 calendar
 * months, the current one included). `from` after `to` is a 400.
 */
export function readRange(query: Record<string, string | undefined>, today: string): DateRange {
  const issues: FieldIssue[] = [];
  const date = (field: 'from' | 'to'): string | undefined => {
    const value = query[field];
    if (value === undefined) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !isRealDate(value)) {
      issues.push({ field, issue: 'invalid_format', params: { format: 'YYYY-MM-DD' } });
      return undefined;
    }
    if (value < MIN_DATE || value > MAX_DATE) {
      issues.push({ field, issue: 'out_of_range', params: { min: MIN_DATE, max: MAX_DATE } });
      return undefined;
    }
    return value;
  };
  const from = date('from');
  const to = date('to');
  if (issues.length) throw new AppError('invalid_parameter', { parameter: issues[0].field }, issues);
  const end = to ?? today;
  const start = from ?? defaultFrom(end);
  if (start > end) throw AppError.invalidParameter('to', 'before_start', { start });
  return { from: start, to: end };
}

/** The first day of the month eleven months before `to`'s month. */
export function defaultFrom(to: string): string {
  const [year, month] = to.split('-').map(Number);
  const index = year * 12 + (month - 1) - 11;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
}

/** The period just before `range`, of the same number of days (the donors report's "previous period"). */
export function previousRange(range: DateRange): DateRange {
  const day = 86_400_000;
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  const days = Math.round((to - from) / day) + 1;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(from - days * day), to: iso(from - day) };
}
