import { AppError } from '../errors/app-error';
import { ConcurrencyGate } from './concurrency-gate';

describe('ConcurrencyGate', () => {
  afterEach(() => jest.useRealTimers());

  it('admits `limit` holders; the next waits until one gives its place back, in arrival order', async () => {
    const gate = new ConcurrencyGate(2, 60_000);
    const first = await gate.enter();
    const second = await gate.enter();
    const order: string[] = [];
    const third = gate.enter().then((release) => (order.push('third'), release));
    const fourth = gate.enter().then((release) => (order.push('fourth'), release));
    await Promise.resolve();
    expect(gate.load).toEqual({ active: 2, waiting: 2 });
    expect(order).toEqual([]);
    first();
    first(); // a second call gives back nothing more
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(gate.load).toEqual({ active: 2, waiting: 1 });
    second();
    const releaseFourth = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    releaseThird();
    releaseFourth();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('a waiter that waits longer than the limit leaves the line with a 503 service_unavailable and Retry-After', async () => {
    jest.useFakeTimers();
    const gate = new ConcurrencyGate(1, 1_000);
    const held = await gate.enter();
    const waiting = gate.enter();
    jest.advanceTimersByTime(1_001);
    await expect(waiting).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
      headers: { 'Retry-After': '5' },
    });
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    held();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('a waiter whose client went away (aborted signal) leaves the line and never takes a place', async () => {
    const gate = new ConcurrencyGate(1, 60_000);
    const held = await gate.enter();
    const gone = new AbortController();
    const waiting = gate.enter(gone.signal);
    const next = gate.enter();
    gone.abort();
    await expect(waiting).rejects.toBeInstanceOf(AppError);
    held();
    const release = await next;
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    release();
    await expect(gate.enter(AbortSignal.abort())).rejects.toBeInstanceOf(AppError);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
