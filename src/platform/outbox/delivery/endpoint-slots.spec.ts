import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('holds at most the limit per endpoint; other endpoints are not affected', () => {
    const slots = new EndpointSlots(2);
    expect([slots.acquire('a', 0), slots.acquire('a', 0), slots.acquire('a', 0)]).toEqual([true, true, false]);
    expect(slots.acquire('b', 0)).toBe(true);
  });

  it('a released slot goes to the longest waiter, in order', async () => {
    const slots = new EndpointSlots(1);
    expect(slots.acquire('a', 0)).toBe(true);
    const order: string[] = [];
    const first = Promise.resolve(slots.acquire('a', 10_000)).then((ok) => order.push(`first ${ok}`));
    const second = Promise.resolve(slots.acquire('a', 10_000)).then((ok) => order.push(`second ${ok}`));
    slots.release('a');
    await first;
    expect(order).toEqual(['first true']);
    slots.release('a');
    await second;
    expect(order).toEqual(['first true', 'second true']);
    slots.release('a');
    expect(slots.acquire('a', 0)).toBe(true);
  });

  it('a waiter gives up after its wait, and leaves no claim on the slot behind', async () => {
    const slots = new EndpointSlots(1);
    expect(slots.acquire('a', 0)).toBe(true);
    await expect(Promise.resolve(slots.acquire('a', 20))).resolves.toBe(false);
    slots.release('a');
    expect(slots.acquire('a', 0)).toBe(true);
    expect(slots.acquire('a', 0)).toBe(false);
  });
});
