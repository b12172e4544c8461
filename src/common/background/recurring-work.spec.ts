import { RecurringWork } from './recurring-work';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('RecurringWork', () => {
  it('never runs twice at once: a kick during a run asks for exactly one more run after it', async () => {
    const gate = deferred();
    let runs = 0;
    const task = new RecurringWork(async () => {
      runs++;
      if (runs === 1) await gate.promise;
      return runs;
    }, fail);
    const first = task.runOnce();
    task.kick();
    task.kick();
    expect(await task.runOnce()).toBeUndefined(); // busy: no second run at once
    expect(runs).toBe(1);
    gate.resolve();
    expect(await first).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(2);
    await task.stop();
  });

  it('stop() waits for the run in progress and refuses later runs', async () => {
    const gate = deferred();
    let finished = false;
    const task = new RecurringWork(async () => {
      await gate.promise;
      finished = true;
    }, fail);
    void task.runOnce();
    const stopping = task.stop().then(() => finished);
    gate.resolve();
    expect(await stopping).toBe(true);
    expect(await task.runOnce()).toBeUndefined();
  });

  it('passes a failed run to onError and keeps going', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = new RecurringWork(
      async () => {
        if (++runs === 1) throw new Error('boom');
        return runs;
      },
      (e) => errors.push(e),
    );
    expect(await task.runOnce()).toBeUndefined();
    expect(errors).toEqual([new Error('boom')]);
    expect(await task.runOnce()).toBe(2);
  });
});

function fail(error: unknown): never {
  throw error;
}
