import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { EntityManager } from 'typeorm';
import { afterCommitOnce, TenantContext } from '../../common/context/tenant-context';
import { newUuid } from '../../common/ids/id';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { InProcessJobs } from './in-process-jobs';
import { JobRegistry } from './job-registry';
import { JobRow, JobsRepository } from './jobs.repository';
import type { JobKind, JobRef } from './queues';
import { redisConfigured } from '../redis/redis-connection';

export type DispatchedJob = Pick<JobRow, 'tenant_id' | 'id' | 'kind' | 'attempts' | 'max_attempts' | 'run_at'>;

export interface EnqueueOptions {
  /** Whose job: by default the church of the current transaction, or none (a platform job). */
  tenantId?: string | null;
  /** At most one job of this kind and key ever (a daily run, one statement run per year…): a repeat returns null. */
  dedupeKey?: string;
  /** Not before this time. */
  runAt?: Date;
}

/**
 * Asks for background work. Inside a church's transaction the job row is written in that
 * transaction (no job without its change, no change without its job) and handed to BullMQ after
 * the commit; outside one, it is a platform job, written and handed over at once. Without Redis
 * the in-process poller runs it. When the hand-over fails, the sweeper hands it over later.
 */
@Injectable()
export class JobsService {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: JobsRepository,
    private readonly registry: JobRegistry,
    private readonly inProcess: InProcessJobs,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The job's id, or null when `dedupeKey` names an existing job. `data` carries ids only. */
  async enqueue(kind: JobKind, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<string | null> {
    const scope = TenantContext.peek();
    const row = await this.create(kind, data, options, scope?.manager);
    if (!row) return null;
    if (scope) afterCommitOnce(`job:${row.id}`, () => this.dispatch([row]));
    else await this.dispatch([row]);
    return row.id;
  }

  /**
   * Writes the job row in `manager`'s transaction (the church's one inside TenantContext) without
   * handing it over: the caller dispatches it once that transaction has committed.
   */
  create(
    kind: JobKind,
    data: Record<string, unknown>,
    options: EnqueueOptions = {},
    manager?: EntityManager,
  ): Promise<JobRow | null> {
    const tenantId = options.tenantId !== undefined ? options.tenantId : (TenantContext.peek()?.tenantId ?? null);
    const { maxAttempts } = this.registry.options(kind);
    return this.repository.insert(
      {
        id: newUuid(),
        tenantId,
        kind,
        data,
        dedupeKey: options.dedupeKey ?? null,
        maxAttempts,
        runAt: options.runAt ?? null,
      },
      manager,
    );
  }

  /** Hands jobs to their BullMQ queues (jobId = the row's id, so a repeat is a no-op), or wakes the in-process poller. */
  async dispatch(rows: DispatchedJob[]): Promise<void> {
    if (!redisConfigured(this.config)) {
      this.inProcess.kick();
      return;
    }
    for (const row of rows) {
      const delay = Math.max(0, new Date(row.run_at).getTime() - Date.now());
      try {
        await this.queue(row.kind).add(row.kind, { jobId: row.id, tenantId: row.tenant_id } satisfies JobRef, {
          jobId: row.id,
          delay,
          attempts: Math.max(1, row.max_attempts - row.attempts),
          backoff: { type: 'exponential', delay: this.config.JOB_RETRY_BASE_MS },
          removeOnComplete: true,
          removeOnFail: true,
        });
      } catch (error) {
        this.logger.warn(`job ${row.kind} ${row.id} not handed to the queue (the sweeper will): ${String(error)}`);
      }
    }
  }

  private queue(kind: string): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(kind), { strict: false });
  }
}
