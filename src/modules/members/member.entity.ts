import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const GENDERS = ['male', 'female', 'unspecified'] as const;
export const MEMBER_STATUSES = ['visitor', 'regular', 'member', 'leader'] as const;
export type Gender = (typeof GENDERS)[number];
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const HOUSEHOLD_ROLES = ['head', 'spouse', 'adult', 'child', 'other'] as const;
export type HouseholdRole = (typeof HOUSEHOLD_ROLES)[number];
/** The role of a member who joins a household by their own `household_id` (member POST/PUT/PATCH, bulk). */
export const DEFAULT_HOUSEHOLD_ROLE: HouseholdRole = 'other';

export type CustomFields = Record<string, string | number | boolean | null>;

export interface Address {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  region?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

@Entity('members')
export class MemberEntity extends TenantScopedEntity {
  @Column('text') firstName: string;
  @Column('text') lastName: string;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) phone: string | null;
  /** YYYY-MM-DD (a `date` column read as a string, never shifted by time zones). */
  @Column('date', { nullable: true }) birthdate: string | null;
  @Column('text', { nullable: true }) gender: Gender | null;
  @Column('text') status: MemberStatus;
  @Column('uuid', { nullable: true }) campusId: string | null;
  @Column('boolean') active: boolean;
  @Column('uuid', { nullable: true }) householdId: string | null;
  /** Null exactly when householdId is (a CHECK constraint holds it). */
  @Column('text', { nullable: true }) householdRole: HouseholdRole | null;
  @Column('jsonb', { nullable: true }) address: Address | null;
  @Column('jsonb') customFields: CustomFields;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
  /** The survivor a deleted member was merged into (CONTRACT §17); null for every other member. */
  @Column('uuid', { nullable: true }) mergedInto: string | null;
}
