import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const PROSPECT_SOURCES = ['visit', 'event', 'online', 'referral', 'other'] as const;
export const PROSPECT_STAGES = ['new', 'contacted', 'visited', 'connecting', 'converted', 'lost'] as const;
/** The stages a client may write: `converted` is set only by POST /v1/prospects/{id}/convert. */
export const WRITABLE_STAGES = PROSPECT_STAGES.filter((stage) => stage !== 'converted');
export type ProspectSource = (typeof PROSPECT_SOURCES)[number];
export type ProspectStage = (typeof PROSPECT_STAGES)[number];

@Entity('prospects')
export class ProspectEntity extends TenantScopedEntity {
  @Column('text') firstName: string;
  @Column('text') lastName: string;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) phone: string | null;
  @Column('uuid', { nullable: true }) campusId: string | null;
  @Column('text', { nullable: true }) source: ProspectSource | null;
  @Column('text') stage: ProspectStage;
  /** A staff user of the church (users.id). */
  @Column('uuid', { nullable: true }) assignedTo: string | null;
  /** YYYY-MM-DD (a `date` column read as a string). */
  @Column('date', { nullable: true }) followUpOn: string | null;
  @Column('text', { nullable: true }) notes: string | null;
  @Column('timestamptz', { nullable: true }) convertedAt: Date | null;
  @Column('uuid', { nullable: true }) memberId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
