import { DiscoveryService } from '@nestjs/core';
import type { JobKind } from './queues';

export interface BackgroundJobOptions {
  kind: JobKind;
  /** Runs of one job before it is `failed` (default 5); the delay doubles from JOB_RETRY_BASE_MS. */
  maxAttempts?: number;
}

/** Marks the provider that runs one kind of job: `@BackgroundJob({ kind: QUEUES.mail })`. */
export const BackgroundJob = DiscoveryService.createDecorator<BackgroundJobOptions>();

/** What a handler gets: its job's ids and data, progress reporting, and the church's transaction. */
export interface JobContext<Data> {
  id: string;
  /** Null for a platform job (a chore across churches). */
  tenantId: string | null;
  data: Data;
  /** 1 on the first run. */
  attempt: number;
  /** Records progress on the job's row (read through the resource that started it) and on the BullMQ job. */
  progress(done: number, total?: number): Promise<void>;
  /** Runs `fn` in one transaction of the job's church, exactly as a request does (row-level security, TenantContext). */
  inTenant<T>(fn: () => Promise<T>): Promise<T>;
}

/** A run that threw, as the runner tells a handler's onFailure. */
export interface JobFailure {
  error: unknown;
  /** The error's message (what the job row records as its last error). */
  message: string;
  /** The job's last run: it is not tried again (it ends `failed`). */
  final: boolean;
}

/**
 * One kind of background work. `run` is idempotent (a job may run again after a crash) and throws
 * on failure: the failure is recorded on the job and the job is retried with backoff.
 */
export interface JobHandler<Data = Record<string, unknown>> {
  run(context: JobContext<Data>): Promise<unknown>;
  /**
   * Mirrors a failed run on the resource that started the job (its status, its last error), so
   * that clients polling the resource see it. Called by the runner after every run that throws,
   * before the failure is recorded on the job and its retry scheduled; what it throws is logged,
   * never thrown (the run's error is what the job records and what the runner throws).
   */
  onFailure?(context: JobContext<Data>, failure: JobFailure): Promise<void>;
}
