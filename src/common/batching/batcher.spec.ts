import { Batcher, KeyedBatcher } from './batcher';

function deferred() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe('Batcher', () => {
  it('sends calls made in one turn as one batch and answers each caller its own result', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      batches.push(items);
      return items.map((i) => i * 10);
    });
    const results = await Promise.all([1, 2, 3].map((i) => batcher.submit(i)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('groups calls made while a batch runs into the next batch (group commit)', async () => {
    const gate = deferred();
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate.done;
      return items;
    });
    const first = batcher.submit(1);
    await new Promise((r) => setImmediate(r));
    const later = [2, 3, 4].map((i) => batcher.submit(i));
    gate.release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('splits at maxSize and gives every caller of a failed batch the error, later batches unaffected', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        batches.push(items);
        if (items.includes(2)) throw new Error('boom');
        return items;
      },
      { maxSize: 2 },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)));
    expect(batches).toEqual([[1, 2], [3]]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((settled[0] as PromiseRejectedResult).reason).toEqual(new Error('boom'));
  });

  it('runs up to `lanes` batches at once; later calls wait for a free lane and go together', async () => {
    const gates = [deferred(), deferred()];
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        const n = batches.push(items);
        if (n <= 2) await gates[n - 1].done;
        return items;
      },
      { lanes: 2 },
    );
    const turn = () => new Promise((r) => setImmediate(r));
    const first = batcher.submit(1);
    await turn();
    const second = batcher.submit(2);
    await turn();
    expect(batches).toEqual([[1], [2]]); // the second batch did not wait for the first
    const later = [3, 4].map((i) => batcher.submit(i));
    await turn();
    expect(batches).toHaveLength(2); // both lanes busy
    gates[1].release();
    expect(await Promise.all([second, ...later])).toEqual([2, 3, 4]);
    expect(batches).toEqual([[1], [2], [3, 4]]);
    gates[0].release();
    expect(await first).toBe(1);
  });
});

describe('KeyedBatcher', () => {
  it('batches per key, never mixing keys in one batch', async () => {
    const batches: string[] = [];
    const batcher = new KeyedBatcher<string, number, string>(async (key, items) => {
      batches.push(`${key}:${items.join(',')}`);
      return items.map((i) => `${key}${i}`);
    });
    const results = await Promise.all([batcher.submit('a', 1), batcher.submit('b', 2), batcher.submit('a', 3)]);
    expect(results).toEqual(['a1', 'b2', 'a3']);
    expect(batches.sort()).toEqual(['a:1,3', 'b:2']);
  });
});
