interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export interface BatcherOptions {
  /** Most items in one batch. */
  maxSize?: number;
  /** Most batches running at once; calls made while every lane is busy wait for the next free one. */
  lanes?: number;
  /** Called when nothing runs and nothing waits. */
  onIdle?: () => void;
}

/**
 * Group commit: calls made while the batches in flight run wait and go together in the next one,
 * so under load N callers share one round trip (and one transaction) instead of making N. An idle
 * caller waits only for the current event-loop turn. `run` answers item i with result i; when it
 * throws, every caller of that batch gets the error.
 */
export class Batcher<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxSize: number;
  private readonly lanes: number;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: BatcherOptions = {},
  ) {
    this.maxSize = options.maxSize ?? 100;
    this.lanes = options.lanes ?? 1;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.lanes || !this.waiting.length) return;
    this.scheduled = true;
    // One turn's calls gather before a batch leaves.
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.lanes && this.waiting.length) void this.send(this.waiting.splice(0, this.maxSize));
    });
  }

  private async send(batch: Waiting<I, O>[]): Promise<void> {
    this.inFlight++;
    try {
      const results = await this.run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.inFlight--;
      this.schedule();
      if (!this.inFlight && !this.scheduled && !this.waiting.length) this.options.onIdle?.();
    }
  }
}

/** One Batcher per key (e.g. per church, since a transaction serves one church). */
export class KeyedBatcher<K, I, O> {
  private readonly batchers = new Map<K, Batcher<I, O>>();

  constructor(
    private readonly run: (key: K, items: I[]) => Promise<O[]>,
    private readonly options: Omit<BatcherOptions, 'onIdle'> = {},
  ) {}

  submit(key: K, item: I): Promise<O> {
    let batcher = this.batchers.get(key);
    if (!batcher) {
      batcher = new Batcher((items) => this.run(key, items), {
        ...this.options,
        onIdle: () => this.batchers.delete(key),
      });
      this.batchers.set(key, batcher);
    }
    return batcher.submit(item);
  }
}
