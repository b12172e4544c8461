import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('keeps at most `limit` entries, dropping the oldest-set key first', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3).set('c', 4);
    expect([...map.entries()]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
