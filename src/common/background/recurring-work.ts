/**
 * A piece of background work that runs on a timer and on demand, never twice at once: a `kick()`
 * while it runs asks for one more run right after it; `stop()` waits for the run in progress (so
 * that it finishes before the database closes). `work` reports its own errors; a rejection is
 * passed to `onError`.
 */
export class RecurringWork<T> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<T | undefined>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly work: () => Promise<T>,
    private readonly onError: (error: unknown) => void,
  ) {}

  get started(): boolean {
    return this.timer !== undefined && !this.stopped;
  }

  start(everyMs: number): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
  }

  /** Runs now, or once more right after the run in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else void this.runOnce();
  }

  /** One run and its result; undefined when a run is already in progress (or after stop). */
  runOnce(): Promise<T | undefined> {
    if (this.running || this.stopped) return Promise.resolve(undefined);
    const run = this.work()
      .catch((error: unknown) => {
        this.onError(error);
        return undefined;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
    this.running = run;
    return run;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
