/**
 * How many attempts to one endpoint run at once in this process, so that a slow church cannot take
 * every slot. An attempt may wait a while for a slot (attempts of one job to one endpoint take
 * turns); past that it is told the endpoint is busy and is scheduled again later.
 */
export class EndpointSlots {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly perEndpoint: number) {}

  /** True once a slot is held (release it); false if none came free within `waitMs`. */
  acquire(endpoint: string, waitMs: number): Promise<boolean> | boolean {
    const running = this.running.get(endpoint) ?? 0;
    if (running < this.perEndpoint) {
      this.running.set(endpoint, running + 1);
      return true;
    }
    if (waitMs <= 0) return false;
    return new Promise<boolean>((resolve) => {
      const queue = this.waiting.get(endpoint) ?? [];
      this.waiting.set(endpoint, queue);
      const handOver = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(handOver);
        if (at >= 0) queue.splice(at, 1);
        if (!queue.length && this.waiting.get(endpoint) === queue) this.waiting.delete(endpoint);
        resolve(false);
      }, waitMs);
      queue.push(handOver);
    });
  }

  /** Gives the slot to the longest waiter, or frees it. */
  release(endpoint: string): void {
    const queue = this.waiting.get(endpoint);
    const next = queue?.shift();
    if (queue && !queue.length) this.waiting.delete(endpoint);
    if (next) return next();
    const left = (this.running.get(endpoint) ?? 1) - 1;
    if (left > 0) this.running.set(endpoint, left);
    else this.running.delete(endpoint);
  }
}
