import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { JobsService } from '../../platform/jobs/jobs.service';
import { QUEUES } from '../../platform/jobs/queues';
import { nextDailyRun } from './daily-schedule';

/**
 * Asks for one `token-expiry` job per UTC day: at start (today's, unless it exists) and then at
 * DAILY_HOUR_UTC each day. The day is the job's dedupe key, so however many processes run this,
 * a day gets one job.
 */
@Injectable()
export class TokenExpirySchedule implements OnModuleDestroy {
  private readonly logger = new Logger('TokenExpirySchedule');
  private timer?: NodeJS.Timeout;
  private planning?: Promise<unknown>;
  private stopped = false;

  constructor(private readonly jobs: JobsService) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.plan(new Date());
  }

  /** Today's job (key `YYYY-MM-DD`), then a timer for the next day's. */
  private plan(now: Date): void {
    const day = now.toISOString().slice(0, 10);
    this.planning = this.jobs
      .enqueue(QUEUES.tokenExpiry, {}, { dedupeKey: day })
      .then((id) => id && this.logger.log(`token-expiry job for ${day} queued`))
      .catch((error: unknown) =>
        this.logger.error(`token-expiry job for ${day} not queued (next start or day will): ${String(error)}`),
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
