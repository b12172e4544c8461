import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { nextDailyRun } from './daily-schedule';
import { JobsService } from './jobs.service';
import { JobKind, QUEUES } from './queues';

/** The platform's daily chores: token-expiry notices, deleting mail sent and changes made long ago. */
export const DAILY_JOBS: JobKind[] = [QUEUES.tokenExpiry, QUEUES.mailRetention, QUEUES.changeRetention];

/**
 * Asks for one job of each daily kind per UTC day: at start (today's, unless it exists) and then
 * at DAILY_HOUR_UTC each day. The day is the job's dedupe key, so however many processes run this,
 * a day gets one job of each kind.
 */
@Injectable()
export class DailyJobs implements OnModuleDestroy {
  private readonly logger = new Logger('DailyJobs');
  private timer?: NodeJS.Timeout;
  private planning?: Promise<unknown>;
  private stopped = false;

  constructor(private readonly jobs: JobsService) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.plan(new Date());
  }

  /** Today's jobs (key `YYYY-MM-DD`), then a timer for the next day's. */
  private plan(now: Date): void {
    const day = now.toISOString().slice(0, 10);
    this.planning = Promise.all(
      DAILY_JOBS.map((kind) =>
        this.jobs
          .enqueue(kind, {}, { dedupeKey: day })
          .then((id) => id && this.logger.log(`${kind} job for ${day} queued`))
          .catch((error: unknown) =>
            this.logger.error(`${kind} job for ${day} not queued (next start or day will): ${String(error)}`),
          ),
      ),
    );
    const next = nextDailyRun(now);
    this.timer = setTimeout(() => this.plan(new Date()), next.getTime() - Date.now());
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.planning;
  }
}
