import { WorkerHost } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobRunner } from './job-runner';
import type { JobRef } from './queues';

/**
 * The BullMQ consumer of one background-job queue. A kind's processor is this class under its
 * queue's name, registered in WorkerModule only:
 * `@Processor(QUEUES.mail, { autorun: false }) export class MailProcessor extends JobProcessor {}`.
 * A failed run throws, so BullMQ retries it with the job's backoff.
 */
@Injectable()
export abstract class JobProcessor extends WorkerHost {
  constructor(private readonly runner: JobRunner) {
    super();
  }

  process(job: Job<JobRef>): Promise<string> {
    return this.runner.run({ id: job.data.jobId, tenantId: job.data.tenantId }, (progress) =>
      job.updateProgress(progress),
    );
  }
}
