export interface WaitOptions {
  /** Give up after this many milliseconds (default 10 000). */
  timeout?: number;
  /** Pause between two checks, in milliseconds (default 50). */
  interval?: number;
  /** What is awaited, for the time-out's message (e.g. "the commit to wait on the lock"); a function is asked at the time-out. */
  what?: string | (() => string);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A value as the time-out's message shows it: JSON, cut at 500 characters. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;

/**
 * Calls `check` until it returns a truthy value, and returns that value; after `timeout` ms it
 * throws an error naming `what`, the time waited and the last value. An error thrown by `check`
 * is not retried: it fails the wait at once.
 *
 * With `until`, the value is done when `until(value)` holds (any value, falsy ones too).
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitOptions & { until: (value: T) => boolean },
): Promise<T>;
export async function waitFor<T>(check: () => T | Promise<T>, options?: WaitOptions): Promise<Truthy<T>>;
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitOptions & { until?: (value: T) => boolean } = {},
): Promise<T> {
  const { timeout = 10_000, interval = 50, what = 'the condition', until = (value: T) => Boolean(value) } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (until(value)) return value;
    if (Date.now() > deadline) {
      const described = typeof what === 'function' ? what() : what;
      throw new Error(`timed out after ${timeout} ms waiting for ${described}; last: ${shown(value)}`);
    }
    await sleep(interval);
  }
}
