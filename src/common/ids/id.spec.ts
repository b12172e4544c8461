import { newUuid, parsePublicId, toPublicId } from './id';

describe('newUuid (UUIDv7)', () => {
  const ids = Array.from({ length: 20_000 }, newUuid);

  it('has the v7 layout: version 7, RFC variant, lowercase hex', () => {
    for (const id of ids.slice(0, 2000))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('starts with the current Unix time in milliseconds, so ids sort by creation time', () => {
    const before = Date.now();
    const id = newUuid();
    const ms = Number(BigInt(`0x${id.replace(/-/g, '').slice(0, 12)}`));
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
    const later = ids.map((u) => u.slice(0, 13)).every((prefix, i, all) => i === 0 || prefix >= all[i - 1]);
    expect(later).toBe(true);
  });

  it('is unique across many ids drawn from the random pool', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('round-trips through the public form', () => {
    const id = newUuid();
    expect(parsePublicId('mem', toPublicId('mem', id))).toBe(id);
  });
});
