import type { FilterValue, ListSpec, Operator } from '../../common/lists/list-spec';
import { GROUP_ROLES, GroupMemberEntity } from './group-member.entity';
import { timestampFilter, timestampSort } from '../../common/lists/list-spec-parts';

const SQL_OP: Partial<Record<Operator, string>> = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A condition on the member's own column (created_at, updated_at: what the answer shows), through its primary key. */
function onMember(column: string) {
  return (alias: string, op: Operator, value: FilterValue | FilterValue[], param: (v: unknown) => string): string =>
    `EXISTS (SELECT 1 FROM members mf WHERE mf.tenant_id = ${alias}.tenant_id AND mf.id = ${alias}.member_id AND mf.${column} ${SQL_OP[op] ?? '='} ${param(value)})`;
}

/**
 * GET /v1/groups/{id}/members: the group's roster in the member list envelope, paged by
 * (joined_at, id) on group_members (tenant_id, group_id, joined_at, id).
 */
export const GROUP_MEMBER_LIST: ListSpec<GroupMemberEntity> = {
  resource: 'group member',
  defaultSort: 'joined_at',
  sorts: {
    joined_at: timestampSort('joined_at', (row) => row.joinedAt),
  },
  filters: {
    group_role: {
      type: 'enum',
      values: GROUP_ROLES,
      ops: [],
      column: 'group_role',
      description: '`leader` for the group’s leaders.',
    },
    joined_at: timestampFilter('joined_at', 'When the member joined the group (ISO 8601).'),
    created_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      sql: onMember('created_at'),
      description: 'The member’s creation time (ISO 8601), as `created_at` shows it.',
    },
    updated_at: {
      type: 'timestamp',
      ops: ['gt', 'gte', 'lt', 'lte'],
      sql: onMember('updated_at'),
      description: 'The member’s last change (ISO 8601), as `updated_at` shows it.',
    },
  },
};
