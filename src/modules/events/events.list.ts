import type { ListSpec } from '../../common/lists/list-spec';
import { EventEntity, EVENT_STATUSES } from './event.entity';
import type { RegistrationEntity } from './registration.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';

export const EVENT_LIST: ListSpec<EventEntity> = {
  resource: 'event',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    starts_at: timestampSort('starts_at', (row) => row.startsAt),
  },
  filters: {
    campus: CAMPUS_FILTER,
    status: {
      type: 'enum',
      values: EVENT_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: '`scheduled` or `canceled`.',
    },
    starts_at: timestampFilter(
      'starts_at',
      'Start (ISO 8601; an offset is honoured), e.g. `starts_at[gte]=<now>&sort=starts_at` for the upcoming events.',
    ),
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
  },
};

export const REGISTRATION_LIST: ListSpec<RegistrationEntity> = {
  resource: 'registration',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
  },
  filters: {
    created_at: timestampFilter('created_at', 'Registration time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601).'),
  },
};
