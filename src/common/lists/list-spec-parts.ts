import type { FilterDef, SortDef } from './list-spec';

/** The range operators of timestamp and date filters. */
export const RANGE_OPS = ['gt', 'gte', 'lt', 'lte'] as const;

/** `<column>[gte]=…` and the other range operators on a timestamp column (an offset is honoured). */
export function timestampFilter(column: string, description: string): FilterDef {
  return { type: 'timestamp', ops: RANGE_OPS, column, description };
}

/** A sort on a timestamp column; the cursor carries the row's value as ISO 8601. */
export function timestampSort<T>(column: string, get: (row: T) => Date): SortDef<T> {
  return { column, type: 'timestamp', value: (row) => get(row).toISOString() };
}
