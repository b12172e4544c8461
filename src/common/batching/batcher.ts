interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: calls made while a batch is running wait and go together in the next one, so
 * under load N callers share one round trip (and one transaction) instead of making N. An idle
 * caller waits only for the current event-loop turn. `run` answers item i with result i; when it
 * throws, every caller of that batch gets the error.
 */
export class Batcher<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private running = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxSize = 100,
    private readonly onIdle?: () => void,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.maxSize);
      try {
        const results = await this.run(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.running = false;
    this.onIdle?.();
  }
}

/** One Batcher per key (e.g. per church, since a transaction serves one church). */
export class KeyedBatcher<K, I, O> {
  private readonly batchers = new Map<K, Batcher<I, O>>();

  constructor(
    private readonly run: (key: K, items: I[]) => Promise<O[]>,
    private readonly maxSize = 100,
  ) {}

  submit(key: K, item: I): Promise<O> {
    let batcher = this.batchers.get(key);
    if (!batcher) {
      batcher = new Batcher((items) => this.run(key, items), this.maxSize, () => this.batchers.delete(key));
      this.batchers.set(key, batcher);
    }
    return batcher.submit(item);
  }
}
