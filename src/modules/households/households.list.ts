import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import type { HouseholdEntity } from './household.entity';

function nameSearch(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  return `${alias}.name ILIKE ${param(`%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
}

export const HOUSEHOLD_LIST: ListSpec<HouseholdEntity> = {
  resource: 'household',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
    name: { column: 'name', type: 'text', value: (row) => row.name },
  },
  filters: {
    q: { type: 'string', ops: [], sql: nameSearch, description: 'Search in the name (substring, case-insensitive).' },
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'created_at',
      description: 'Creation time (ISO 8601; an offset is honoured).',
    },
    updated_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'updated_at',
      description: 'Last change (ISO 8601): for incremental sync.',
    },
  },
};
