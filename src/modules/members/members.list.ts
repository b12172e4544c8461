import { ID_PREFIX, parsePublicId } from '../../common/ids/id';
import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { GENDERS, MEMBER_STATUSES, MemberEntity } from './member.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';
import { CAMPUS_FILTER } from '../campuses/campus-filter';
import { PERSON_SEARCH, strictIdCondition } from '../../common/lists/ref-filters';

const TODAY = `(now() AT TIME ZONE 'UTC')::date`;

/** age OP n, as a condition on birthdate that the (tenant_id, birthdate, id) index can answer. */
function ageCondition(
  alias: string,
  op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const col = `${alias}.birthdate`;
  const atLeast = (n: number) => `${col} <= (${TODAY} - make_interval(years => ${param(n)}::int))::date`;
  const atMost = (n: number) => `${col} > (${TODAY} - make_interval(years => ${param(n + 1)}::int))::date`;
  const n = value as number;
  switch (op) {
    case 'gte':
      return atLeast(n);
    case 'gt':
      return atLeast(n + 1);
    case 'lte':
      return atMost(n);
    case 'lt':
      return atMost(n - 1);
    case 'ne':
      return `NOT (${atLeast(n)} AND ${atMost(n)})`;
    default:
      return `(${atLeast(n)} AND ${atMost(n)})`;
  }
}

/**
 * tag=<tag_ id or name, ignoring case>, or tag[in]=a,b: members carrying any of them. A semi-join
 * on member_tags: from a few tagged members through (tenant_id, tag_id, member_id), or along the
 * page's sort index probing (tenant_id, member_id, tag_id) when the tag is common.
 */
function tagCondition(
  alias: string,
  _op: Operator,
  value: FilterValue | FilterValue[],
  param: (v: unknown) => string,
): string {
  const refs = (Array.isArray(value) ? value : [value]).map(String);
  const ids = refs.map((r) => parsePublicId(ID_PREFIX.tag, r)).filter((id): id is string => id !== null);
  const names = refs.filter((r) => parsePublicId(ID_PREFIX.tag, r) === null).map((r) => r.trim().toLowerCase());
  // MembersService resolves names to ids first (MemberTagRefs.resolveTagFilter): the planner then sees the tag ids.
  if (!names.length) {
    return ids.length
      ? `EXISTS (SELECT 1 FROM member_tags mt WHERE mt.tenant_id = ${alias}.tenant_id AND mt.member_id = ${alias}.id AND mt.tag_id IN ${param(ids)})`
      : 'FALSE';
  }
  return `EXISTS (SELECT 1 FROM member_tags mt JOIN tags t ON t.tenant_id = mt.tenant_id AND t.id = mt.tag_id
    WHERE mt.tenant_id = ${alias}.tenant_id AND mt.member_id = ${alias}.id
      AND (lower(t.name) IN ${param(names.length ? names : [''])} OR t.id IN ${param(ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])}))`;
}

export const MEMBER_LIST: ListSpec<MemberEntity> = {
  resource: 'member',
  defaultSort: 'created_at',
  sorts: {
    created_at: timestampSort('created_at', (row) => row.createdAt),
    last_name: { column: 'last_name', type: 'text', value: (row) => row.lastName },
    first_name: { column: 'first_name', type: 'text', value: (row) => row.firstName },
    age: { column: 'birthdate', type: 'date', nullable: true, inverted: true, value: (row) => row.birthdate },
  },
  filters: {
    campus: CAMPUS_FILTER,
    household_id: {
      type: 'string',
      ops: ['in'],
      sql: strictIdCondition('household_id', 'household_id', ID_PREFIX.household),
      description: 'Household (hh_ id); `household_id[in]=a,b` for several. A value that is not an hh_ id is a 400.',
    },
    tag: {
      type: 'string',
      ops: ['in'],
      sql: tagCondition,
      description: 'Tag (tag_ id or name, ignoring case); `tag[in]=a,b` for members carrying any of several.',
    },
    active: { type: 'boolean', ops: [], column: 'active', description: 'true or false.' },
    status: {
      type: 'enum',
      values: MEMBER_STATUSES,
      ops: ['ne', 'in'],
      column: 'status',
      description: 'Membership status.',
    },
    gender: { type: 'enum', values: GENDERS, ops: ['ne', 'in'], column: 'gender', description: 'Gender.' },
    age: {
      type: 'integer',
      ops: ['ne', 'gt', 'gte', 'lt', 'lte'],
      sql: ageCondition,
      description: 'Age in whole years; members without birthdate never match.',
    },
    created_at: timestampFilter('created_at', 'Creation time (ISO 8601; an offset is honoured).'),
    updated_at: timestampFilter('updated_at', 'Last change (ISO 8601): for incremental sync.'),
    created_after: {
      type: 'date',
      ops: [],
      sql: (a, _o, v, p) => `${a}.created_at >= (${p(v)}::date::timestamp AT TIME ZONE 'UTC')`,
      description: 'Created on or after this date (YYYY-MM-DD, UTC).',
    },
    created_before: {
      type: 'date',
      ops: [],
      sql: (a, _o, v, p) => `${a}.created_at < (${p(v)}::date::timestamp AT TIME ZONE 'UTC')`,
      description: 'Created before this date (YYYY-MM-DD, UTC).',
    },
    email: {
      type: 'string',
      ops: [],
      sql: (a, _o, v, p) => `${a}.email_key = lower(${p(v)})`,
      description: 'Exact e-mail, case-insensitive.',
    },
    q: {
      type: 'string',
      ops: [],
      sql: PERSON_SEARCH,
      description: 'Search in name and e-mail (substring, case-insensitive).',
    },
  },
};
