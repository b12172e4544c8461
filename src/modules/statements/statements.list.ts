import { ID_PREFIX, IdPrefix, parsePublicId } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { StatementEntity } from './statement.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

const NO_ID = '00000000-0000-0000-0000-000000000000';

/** The uuids of the public ids among `value`; a malformed one matches nothing (as an unknown one does). */
function uuidsOf(prefix: IdPrefix, value: FilterValue | FilterValue[]): string[] {
  const ids = (Array.isArray(value) ? value : [value])
    .map((v) => parsePublicId(prefix, String(v)))
    .filter((id): id is string => id !== null);
  return ids.length ? ids : [NO_ID];
}

/** donor_id=<mem_ id>: the statements listing that member's gifts (their own, or their household's joint one). */
function donorCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  return `${alias}.id IN (SELECT sd.statement_id FROM statement_donors sd WHERE sd.tenant_id = ${alias}.tenant_id AND sd.member_id IN ${param(uuidsOf(ID_PREFIX.member, value))})`;
}

function runCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  return `${alias}.run_id IN ${param(uuidsOf(ID_PREFIX.statementRun, value))}`;
}

export const STATEMENT_LIST: ListSpec<StatementEntity> = {
  resource: 'statement',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    updated_at: timestampSort('updated_at', (row) => row.updatedAt),
  },
  filters: {
    year: { type: 'integer', ops: ['in'], column: 'year', description: 'The statement year, e.g. `year=2025`.' },
    donor_id: {
      type: 'string',
      ops: ['in'],
      sql: donorCondition,
      description: 'A donor (mem_ id): their statement, or their household’s joint one.',
    },
    run_id: {
      type: 'string',
      ops: ['in'],
      sql: runCondition,
      description: 'The run (stmrun_ id) that issued them last.',
    },
    created_at: timestampFilter('created_at', 'First issued (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last issued (ISO 8601): for incremental sync.'),
  },
};
