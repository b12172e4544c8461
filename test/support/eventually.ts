const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it is truthy (or gives up after `ms` and returns the last value). */
export async function eventually<T>(check: () => Promise<T> | T, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value || Date.now() > deadline) return value;
    await pause(50);
  }
}
