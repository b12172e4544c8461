import { ID_PREFIX } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { asStrings, uuidsOf } from '../../common/lists/ref-filters';
import { EventEntity, EVENT_STATUSES } from './event.entity';
import type { RegistrationEntity } from './registration.entity';

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

export const EVENT_LIST: ListSpec<EventEntity> = {
  resource: 'event',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
    starts_at: { column: 'starts_at', type: 'timestamp', value: (row) => row.startsAt.toISOString() },
  },
  filters: {
    campus: {
      type: 'string',
      ops: ['in'],
      sql: campusCondition,
      description: 'Campus key or cmp_ id; `campus[in]=a,b` for several.',
    },
    status: {
      type: 'enum',
      values: EVENT_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: '`scheduled` or `canceled`.',
    },
    starts_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'starts_at',
      description:
        'Start (ISO 8601; an offset is honoured), e.g. `starts_at[gte]=<now>&sort=starts_at` for the upcoming events.',
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
  },
};

export const REGISTRATION_LIST: ListSpec<RegistrationEntity> = {
  resource: 'registration',
  defaultSort: 'created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: (row) => row.createdAt.toISOString() },
  },
  filters: {
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'created_at',
      description: 'Registration time (ISO 8601; an offset is honoured).',
    },
    updated_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      column: 'updated_at',
      description: 'Last change (ISO 8601).',
    },
  },
};
