/** How a resource's list is filtered and sorted (CONTRACT §6). One spec per resource, read by the parser, the SQL builder and the OpenAPI docs. */

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
export type Operator = (typeof OPERATORS)[number];

export type ValueType = 'string' | 'boolean' | 'integer' | 'number' | 'timestamp' | 'date' | 'enum';
export type FilterValue = string | number | boolean | Date;

/** A condition in SQL with named parameters; `param(value)` returns a placeholder for a value. */
export type SqlCondition = (
  alias: string,
  op: Operator,
  value: FilterValue | FilterValue[],
  param: (value: unknown) => string,
) => string;

export interface FilterDef {
  type: ValueType;
  /** Operators allowed besides eq (the plain `field=value` form). */
  ops: readonly Operator[];
  values?: readonly string[];
  description: string;
  /** Plain column of the alias; or `sql` for a derived condition (age -> birthdate). */
  column?: string;
  sql?: SqlCondition;
}

export interface SortDef<T> {
  column: string;
  /** What a cursor value of this field must look like (checked before it reaches SQL). */
  type: 'text' | 'timestamp' | 'date' | 'integer';
  nullable?: boolean;
  /** Ascending on the field is descending on the column (age -> birthdate). */
  inverted?: boolean;
  /** Cursor value from a row (already in the type the column compares with). */
  value: (row: T) => string | number | null;
}

export interface ListSpec<T = unknown> {
  resource: string;
  defaultSort: string;
  sorts: Record<string, SortDef<T>>;
  filters: Record<string, FilterDef>;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;
