import { previousAttributes } from './previous-attributes';

describe('previousAttributes', () => {
  it('names the top-level fields that changed with their old values, compared deeply, updated_at aside', () => {
    const before = { id: 'mem_1', email: 'a@x.org', address: { city: 'Lima' }, tags: [{ id: 't' }], updated_at: '1' };
    const after = { id: 'mem_1', email: 'b@x.org', address: { city: 'Lima' }, tags: [], updated_at: '2' };
    expect(previousAttributes(before, after)).toEqual({ email: 'a@x.org', tags: [{ id: 't' }] });
  });

  it('is empty when nothing but updated_at moved', () => {
    expect(previousAttributes({ a: 1, updated_at: '1' }, { a: 1, updated_at: '2' })).toEqual({});
  });
});
