import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';
import type { MemberEntity } from '../members/member.entity';

export const GROUP_ROLES = ['leader', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** A member's place in a group (one row per group and member; the id is internal, never shown). */
@Entity('group_members')
export class GroupMemberEntity extends TenantScopedEntity {
  @Column('uuid') groupId: string;
  @Column('uuid') memberId: string;
  @Column('text') groupRole: GroupRole;
  @Column('timestamptz') joinedAt: Date;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  /** The member, when a roster page loaded it with the row (not a column). */
  member?: MemberEntity;
}
