import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import type { JobContext, JobHandler } from './background-job';
import { jobBackoffMs } from './job-backoff';
import { JobRegistry } from './job-registry';
import { JobKey, JobsRepository } from './jobs.repository';

/** How long a run holds its job before another process may take it over (its process died). */
const LEASE_MS = 10 * 60_000;

export type JobProgress = { done: number; total: number | null };

/**
 * One run of one background job, the same under BullMQ and in-process: claim the row, run its
 * handler (in the church's context when it has one), record progress, then done, or the failure
 * (mirrored on the job's resource by the handler's onFailure first) and the time of the next try.
 * A failure is thrown again: nothing is swallowed.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly repository: JobsRepository,
    private readonly registry: JobRegistry,
  ) {}

  /** 'skipped' when the job is finished, unknown, or running elsewhere. `report` mirrors progress (BullMQ's job.updateProgress). */
  async run(key: JobKey, report?: (progress: JobProgress) => Promise<void>): Promise<'done' | 'skipped'> {
    const job = await this.repository.claim(key, LEASE_MS);
    if (!job) return 'skipped';
    const registered = this.registry.get(job.kind);
    if (!registered) {
      await this.repository.fail(key, `no handler for job kind '${job.kind}'`, null);
      throw new Error(`no handler for job kind '${job.kind}'`);
    }
    const tenantId = job.tenant_id;
    const context: JobContext<never> = {
      id: job.id,
      tenantId,
      data: job.data as never,
      attempt: job.attempts,
      progress: async (done, total) => {
        await this.repository.progress(key, done, total ?? null);
        await report?.({ done, total: total ?? job.total });
      },
      inTenant: (fn) => {
        if (!tenantId) throw new Error(`job ${job.id} (${job.kind}) belongs to no church`);
        return this.db.runInTenant({ tenantId, actor: { kind: 'worker' } }, fn);
      },
    };
    // Its runs used up, a job that fails now is not tried again.
    const final = job.attempts >= job.max_attempts;
    try {
      const result = await this.attempt(registered.handler, context, job.kind, final);
      await this.repository.complete(key, result);
      return 'done';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retry = final ? null : new Date(Date.now() + jobBackoffMs(this.config.JOB_RETRY_BASE_MS, job.attempts));
      await this.repository.fail(key, message, retry);
      this.logger.warn(
        `job ${job.kind} ${job.id} run ${job.attempts}/${job.max_attempts} failed${retry ? `, retried at ${retry.toISOString()}` : ', giving up'}: ${message}`,
      );
      throw error;
    }
  }

  /** Runs the handler; when it throws, its onFailure (if any) mirrors the failure before the error goes on. */
  private async attempt(handler: JobHandler<never>, context: JobContext<never>, kind: string, final: boolean) {
    try {
      return await handler.run(context);
    } catch (error) {
      if (handler.onFailure) {
        const message = error instanceof Error ? error.message : String(error);
        await handler
          .onFailure(context, { error, message, final })
          .catch((e: unknown) =>
            this.logger.warn(`job ${kind} ${context.id}: could not record the failure on its resource: ${String(e)}`),
          );
      }
      throw error;
    }
  }
}
