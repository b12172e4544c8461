import { Column, Entity } from 'typeorm';
import { TenantScopedEntity } from '../../common/database/tenant-scoped.entity';

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * One POST /v1/statements. `status`, `total` and `done` mirror the background job that works it
 * (`total`: the statements to issue, known once the worker has counted the donors).
 */
@Entity('statement_runs')
export class StatementRunEntity extends TenantScopedEntity {
  @Column('integer') year: number;
  /** The members asked for; null: every donor of the year. */
  @Column('uuid', { array: true, nullable: true }) donorIds: string[] | null;
  @Column('text') status: RunStatus;
  @Column('integer', { nullable: true }) total: number | null;
  @Column('integer') done: number;
  /** The last failure (kept for staff; never returned: it may carry internal detail). */
  @Column('text', { nullable: true }) lastError: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) finishedAt: Date | null;
}
