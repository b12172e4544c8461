import { ID_PREFIX } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { asStrings, uuidsOf } from '../../common/lists/ref-filters';
import { PROSPECT_SOURCES, PROSPECT_STAGES, ProspectEntity } from './prospect.entity';

/** campus=<key or cmp_ id>, or campus[in]=a,b (as members filter it). */
function campusCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = asStrings(value);
  return `${alias}.campus_id IN (SELECT c.id FROM campuses c WHERE c.tenant_id = ${alias}.tenant_id AND (c.key IN ${param(refs)} OR c.id IN ${param(uuidsOf(ID_PREFIX.campus, refs))}))`;
}

/** assigned_to=<usr_ id>, or assigned_to[in]=a,b. */
function assignedToCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  return `${alias}.assigned_to IN ${param(uuidsOf(ID_PREFIX.user, asStrings(value)))}`;
}

function searchCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const pattern = `%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const p = param(pattern);
  return `((${alias}.first_name || ' ' || ${alias}.last_name) ILIKE ${p} OR ${alias}.email ILIKE ${p})`;
}

export const PROSPECT_LIST: ListSpec<ProspectEntity> = {
  resource: 'prospect',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
    follow_up_on: { column: 'follow_up_on', type: 'date', nullable: true, value: (row) => row.followUpOn },
    last_name: { column: 'last_name', type: 'text', value: (row) => row.lastName },
  },
  filters: {
    stage: {
      type: 'enum',
      values: PROSPECT_STAGES,
      ops: ['ne', 'in'],
      column: 'stage',
      description: 'Pipeline stage; `stage[in]=new,contacted` for several.',
    },
    campus: {
      type: 'string',
      ops: ['in'],
      sql: campusCondition,
      description: 'Campus key or cmp_ id; `campus[in]=a,b` for several.',
    },
    assigned_to: {
      type: 'string',
      ops: ['in'],
      sql: assignedToCondition,
      description: 'The staff user (usr_ id) following the prospect up; `assigned_to[in]=a,b` for several.',
    },
    source: {
      type: 'enum',
      values: PROSPECT_SOURCES,
      ops: ['ne', 'in'],
      column: 'source',
      description: 'How the church met the person.',
    },
    follow_up_on: {
      type: 'date',
      ops: ['ne', 'gt', 'gte', 'lt', 'lte'],
      column: 'follow_up_on',
      description:
        'Follow-up date (YYYY-MM-DD), e.g. `follow_up_on[lte]=<today>` for the ones due; prospects without one never match.',
    },
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
    q: {
      type: 'string',
      ops: [],
      sql: searchCondition,
      description: 'Search in name and e-mail (substring, case-insensitive).',
    },
  },
};
