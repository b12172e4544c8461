import { AppError } from '../errors/app-error';

/**
 * At most `limit` holders at once; the others wait in arrival order, without holding anything
 * else (a database connection above all), for at most `waitMs`: then a 503 with Retry-After. A
 * waiter whose `signal` aborts (its client went away) leaves the line.
 */
export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: { admit: () => void; leave: () => void }[] = [];

  constructor(
    readonly limit: number,
    private readonly waitMs: number,
  ) {}

  /** Waits for a place; resolves to the function that gives it back (once, however often it is called). */
  async enter(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw unavailable();
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        admit: () => {
          done();
          resolve();
        },
        leave: () => {
          done();
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(unavailable());
        },
      };
      const timer = setTimeout(waiter.leave, this.waitMs);
      signal?.addEventListener('abort', waiter.leave, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', waiter.leave);
      };
      this.waiting.push(waiter);
    });
    return this.releaser();
  }

  /** Holders and waiters now (for tests and logs). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The place passes straight to the next waiter: `active` stays as it is.
      const next = this.waiting.shift();
      if (next) next.admit();
      else this.active--;
    };
  }
}

const unavailable = () => new AppError('service_unavailable', {}, [], { 'Retry-After': '5' });
