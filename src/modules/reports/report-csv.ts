import { stringify } from 'csv-stringify/sync';
import { escapeFormula } from '../../common/csv/formula-escape';

type Cell = string | number | boolean | null | undefined;

/**
 * The rows of a report as CSV (RFC 4180 quoting by csv-stringify, a header row of `columns`, CRLF
 * line ends). A nested object is flattened into one column per field named `<key>_<field>`
 * (`fund: {id, name}` → `fund_id,fund_name`); null (a gift without campus) is an empty cell. Text
 * that a spreadsheet would run as a formula is written as text (escapeFormula).
 */
export function toCsv(rows: object[], columns: readonly string[]): string {
  return stringify(
    rows.map((row) => columns.map((column) => cell(row as Record<string, unknown>, column))),
    { header: true, columns: [...columns], record_delimiter: 'windows', cast: { string: escapeFormula } },
  );
}

function cell(row: Record<string, unknown>, column: string): Cell {
  if (column in row) return row[column] as Cell;
  const key = Object.keys(row).find(
    (k) => column.startsWith(`${k}_`) && (row[k] === null || typeof row[k] === 'object'),
  );
  if (key === undefined) return null;
  const nested = row[key] as Record<string, Cell> | null;
  return nested === null ? null : (nested[column.slice(key.length + 1)] ?? null);
}

const MONEY = ['currency', 'count', 'amount', 'refunded', 'net'];

/** The CSV columns of each report (and grouping), in order. */
export const CSV_COLUMNS = {
  giving: {
    fund: ['fund_id', 'fund_name', ...MONEY],
    campus: ['campus_id', 'campus_name', ...MONEY],
    month: ['period', ...MONEY],
    week: ['period', ...MONEY],
  },
  donors: ['donor_id', 'donor_first_name', 'donor_last_name', 'category', 'gifts', 'first_gift_at', 'last_gift_at'],
  attendance: {
    event: ['event_id', 'event_name', 'event_starts_at', 'records', 'unique_people'],
    campus: ['campus_id', 'campus_name', 'records', 'unique_people'],
    week: ['period', 'records', 'unique_people'],
  },
  growth: ['period', 'new_members', 'new_prospects', 'conversions', 'net_active'],
  groups: ['group_id', 'group_name', 'status', 'members', 'leaders', 'meetings', 'attended', 'attendance_rate'],
} as const;
