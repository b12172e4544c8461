import { MEMBER_LIST } from '../../modules/members/members.list';
import { AppError } from '../errors/app-error';
import { encodeCursor } from './cursor';
import { isRealDate, parseListQuery } from './list-query';
import { DEFAULT_LIMIT, ListSpec, MAX_LIMIT } from './list-spec';

/** A small spec of its own, one filter per value type, so the parser is tested apart from members. */
const SPEC: ListSpec<{ id: string }> = {
  resource: 'thing',
  defaultSort: '-created_at',
  sorts: {
    created_at: { column: 'created_at', type: 'timestamp', value: () => null },
    name: { column: 'name', type: 'text', value: () => null },
    score: { column: 'score', type: 'text', nullable: true, value: () => null },
  },
  filters: {
    name: { type: 'string', ops: [], column: 'name', description: '' },
    kind: { type: 'enum', values: ['a', 'b', 'c'], ops: ['ne', 'in'], column: 'kind', description: '' },
    paid: { type: 'boolean', ops: [], column: 'paid', description: '' },
    score: { type: 'integer', ops: ['ne', 'gt', 'gte', 'lt', 'lte', 'in'], column: 'score', description: '' },
    day: { type: 'date', ops: ['gt', 'gte', 'lt', 'lte'], column: 'day', description: '' },
    created_at: { type: 'timestamp', ops: ['gt', 'gte', 'lt', 'lte'], column: 'created_at', description: '' },
  },
};

const UUID = '0192f0c1-a2b3-7c4d-8e9f-0a1b2c3d4e5f';

/** `ListSpec<never>`: a spec for any row type (rows only appear as the argument of `value`). */
function failure(query: Record<string, unknown>, spec: ListSpec<never> = SPEC): AppError {
  try {
    parseListQuery(query, spec);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be rejected`);
}

function badFields(query: Record<string, unknown>, spec: ListSpec<never> = SPEC): string[] {
  const error = failure(query, spec);
  expect(error.code).toBe('invalid_parameter');
  expect(error.status).toBe(400);
  return error.errors.map((e) => e.field);
}

describe('parseListQuery', () => {
  describe('defaults', () => {
    it('uses limit 50, the spec default sort, no cursor and no filters', () => {
      const q = parseListQuery({}, SPEC);
      expect(q).toEqual({
        limit: DEFAULT_LIMIT,
        sort: [{ field: 'created_at', descending: true }],
        sortKey: '-created_at',
        cursor: null,
        filters: [],
        withTotal: true,
      });
      expect(DEFAULT_LIMIT).toBe(50);
      expect(MAX_LIMIT).toBe(250);
    });

    it('treats an empty sort and an empty cursor as absent', () => {
      const q = parseListQuery({ sort: '', cursor: '' }, SPEC);
      expect(q.sortKey).toBe('-created_at');
      expect(q.cursor).toBeNull();
    });

    it('members default to created_at ascending', () => {
      expect(parseListQuery({}, MEMBER_LIST).sortKey).toBe('created_at');
    });
  });

  describe('limit', () => {
    it.each(['1', '50', '249', '250', '007'])('accepts %s', (limit) => {
      expect(parseListQuery({ limit }, SPEC).limit).toBe(Number(limit));
    });

    it.each(['0', '251', '1000', '99999', '-1', 'abc', '', '1.5', '1e2', ' 10', '10 ', '0x10'])(
      'rejects %j as out_of_range',
      (limit) => {
        const error = failure({ limit });
        expect(error.code).toBe('invalid_parameter');
        expect(error.errors).toEqual([{ field: 'limit', issue: 'out_of_range', params: { min: 1, max: 250 } }]);
      },
    );

    it('rejects a repeated limit (an array)', () => {
      expect(badFields({ limit: ['10', '20'] })).toEqual(['limit']);
    });
  });

  describe('sort', () => {
    it('parses one field ascending and descending', () => {
      expect(parseListQuery({ sort: 'name' }, SPEC).sort).toEqual([{ field: 'name', descending: false }]);
      expect(parseListQuery({ sort: '-name' }, SPEC).sort).toEqual([{ field: 'name', descending: true }]);
    });

    it('parses several fields in order and builds the sort key', () => {
      const q = parseListQuery({ sort: '-created_at,name,-score' }, SPEC);
      expect(q.sort).toEqual([
        { field: 'created_at', descending: true },
        { field: 'name', descending: false },
        { field: 'score', descending: true },
      ]);
      expect(q.sortKey).toBe('-created_at,name,-score');
    });

    it('every member sort field is accepted', () => {
      for (const field of ['created_at', 'last_name', 'first_name', 'age']) {
        expect(parseListQuery({ sort: field }, MEMBER_LIST).sortKey).toBe(field);
        expect(parseListQuery({ sort: `-${field}` }, MEMBER_LIST).sortKey).toBe(`-${field}`);
      }
    });

    it('rejects an unknown field as not_sortable, naming the sortable fields', () => {
      const error = failure({ sort: 'email' });
      expect(error.errors).toEqual([
        { field: 'sort', issue: 'not_sortable', params: { values: 'created_at, name, score' } },
      ]);
    });

    it.each(['name,name', 'name,-name', '-score,created_at,score'])('rejects the duplicate field in %j', (sort) => {
      const error = failure({ sort });
      expect(error.errors).toEqual([{ field: 'sort', issue: 'invalid' }]);
    });

    it.each(['name,', ',name', '--name', '+name', 'Name', 'name desc', ' name'])('rejects the malformed %j', (sort) => {
      expect(badFields({ sort })).toContain('sort');
    });

    it('rejects a repeated sort (an array)', () => {
      expect(badFields({ sort: ['name', 'score'] })).toEqual(['sort']);
    });
  });

  describe('filters', () => {
    it('a bare field is eq', () => {
      expect(parseListQuery({ name: 'Ana' }, SPEC).filters).toEqual([{ field: 'name', op: 'eq', value: 'Ana' }]);
      expect(parseListQuery({ 'name[eq]': 'Ana' }, SPEC).filters).toEqual([{ field: 'name', op: 'eq', value: 'Ana' }]);
    });

    it.each([
      ['ne', '5'],
      ['gt', '5'],
      ['gte', '5'],
      ['lt', '-5'],
      ['lte', '0'],
    ])('score[%s]=%s', (op, raw) => {
      expect(parseListQuery({ [`score[${op}]`]: raw }, SPEC).filters).toEqual([
        { field: 'score', op, value: Number(raw) },
      ]);
    });

    it('[in] splits a comma-separated list and parses each value', () => {
      expect(parseListQuery({ 'score[in]': '1,2,30' }, SPEC).filters).toEqual([
        { field: 'score', op: 'in', value: [1, 2, 30] },
      ]);
      expect(parseListQuery({ 'kind[in]': 'a,c' }, SPEC).filters).toEqual([
        { field: 'kind', op: 'in', value: ['a', 'c'] },
      ]);
      expect(parseListQuery({ 'kind[in]': 'b' }, SPEC).filters).toEqual([{ field: 'kind', op: 'in', value: ['b'] }]);
    });

    it('[in] rejects a list with one bad value, an empty item, or more than 100 values', () => {
      expect(badFields({ 'kind[in]': 'a,z' })).toEqual(['kind[in]']);
      expect(badFields({ 'score[in]': '1,,2' })).toEqual(['score[in]']);
      expect(badFields({ 'score[in]': '1,x' })).toEqual(['score[in]']);
      const hundred = Array.from({ length: 100 }, (_, i) => String(i)).join(',');
      expect(parseListQuery({ 'score[in]': hundred }, SPEC).filters[0].value).toHaveLength(100);
      expect(badFields({ 'score[in]': `${hundred},100` })).toEqual(['score[in]']);
    });

    it('keeps several filters, including two operators on one field', () => {
      const q = parseListQuery({ 'score[gte]': '10', 'score[lt]': '20', paid: 'true', kind: 'a' }, SPEC);
      expect(q.filters).toEqual([
        { field: 'score', op: 'gte', value: 10 },
        { field: 'score', op: 'lt', value: 20 },
        { field: 'paid', op: 'eq', value: true },
        { field: 'kind', op: 'eq', value: 'a' },
      ]);
    });

    it('an unknown field is not_filterable, never ignored', () => {
      expect(failure({ color: 'red' }).errors).toEqual([{ field: 'color', issue: 'not_filterable' }]);
      expect(failure({ 'color[gt]': '1' }).errors).toEqual([{ field: 'color[gt]', issue: 'not_filterable' }]);
      expect(badFields({ Name: 'x' })).toEqual(['Name']);
      expect(badFields({ 'name[': 'x' })).toEqual(['name[']);
      expect(badFields({ 'name[eq][gt]': 'x' })).toEqual(['name[eq][gt]']);
      expect(badFields({ offset: '10' })).toEqual(['offset']);
      expect(badFields({ page: '2' })).toEqual(['page']);
    });

    it('an operator the field does not allow, or an unknown operator, is unknown_operator', () => {
      expect(failure({ 'name[gt]': 'x' }).errors).toEqual([
        { field: 'name[gt]', issue: 'unknown_operator', params: { operator: 'gt' } },
      ]);
      expect(failure({ 'score[like]': '1' }).errors).toEqual([
        { field: 'score[like]', issue: 'unknown_operator', params: { operator: 'like' } },
      ]);
      expect(badFields({ 'kind[gt]': 'a' })).toEqual(['kind[gt]']);
      expect(badFields({ 'day[in]': '2024-01-01' })).toEqual(['day[in]']);
      expect(badFields({ 'paid[ne]': 'true' })).toEqual(['paid[ne]']);
    });

    it('a repeated filter (an array) is invalid', () => {
      expect(failure({ name: ['a', 'b'] }).errors).toEqual([{ field: 'name', issue: 'invalid' }]);
    });

    describe('value types', () => {
      it('string: 1..200 characters', () => {
        expect(parseListQuery({ name: 'x'.repeat(200) }, SPEC).filters[0].value).toBe('x'.repeat(200));
        expect(badFields({ name: '' })).toEqual(['name']);
        expect(badFields({ name: 'x'.repeat(201) })).toEqual(['name']);
      });

      it('enum: only the listed values, as one_of', () => {
        expect(parseListQuery({ kind: 'b' }, SPEC).filters[0].value).toBe('b');
        expect(parseListQuery({ 'kind[ne]': 'c' }, SPEC).filters[0]).toEqual({ field: 'kind', op: 'ne', value: 'c' });
        expect(failure({ kind: 'B' }).errors).toEqual([
          { field: 'kind', issue: 'one_of', params: { format: 'one of the listed values', values: 'a, b, c' } },
        ]);
        expect(badFields({ kind: 'd' })).toEqual(['kind']);
        expect(parseListQuery({ status: 'leader', gender: 'female' }, MEMBER_LIST).filters.map((f) => f.value)).toEqual(
          ['leader', 'female'],
        );
        expect(badFields({ status: 'pastor' }, MEMBER_LIST)).toEqual(['status']);
      });

      it('boolean: exactly true or false', () => {
        expect(parseListQuery({ paid: 'true' }, SPEC).filters[0].value).toBe(true);
        expect(parseListQuery({ paid: 'false' }, SPEC).filters[0].value).toBe(false);
        for (const raw of ['TRUE', 'True', '1', '0', 'yes', 'no', ''])
          expect(badFields({ paid: raw })).toEqual(['paid']);
      });

      it('integer: up to 9 digits, optionally negative', () => {
        expect(parseListQuery({ score: '-42' }, SPEC).filters[0].value).toBe(-42);
        expect(parseListQuery({ score: '999999999' }, SPEC).filters[0].value).toBe(999999999);
        for (const raw of ['1.5', '1e3', '0x1', 'abc', '', '1234567890', '+1', ' 1'])
          expect(badFields({ score: raw })).toEqual(['score']);
        expect(failure({ score: 'x' }).errors[0]).toMatchObject({
          issue: 'invalid_format',
          params: { format: 'integer' },
        });
      });

      it('date: YYYY-MM-DD of a real calendar day, kept as the string', () => {
        expect(parseListQuery({ 'day[gte]': '2024-02-29' }, SPEC).filters[0]).toEqual({
          field: 'day',
          op: 'gte',
          value: '2024-02-29',
        });
        for (const raw of [
          '2024-02-30',
          '2023-02-29',
          '2024-13-01',
          '2024-00-10',
          '2024-04-31',
          '2024-1-5',
          '20240105',
          '2024-01-05T00:00:00Z',
        ]) {
          expect(badFields({ day: raw })).toEqual(['day']);
        }
        expect(failure({ day: 'x' }).errors[0]).toMatchObject({
          issue: 'invalid_format',
          params: { format: 'YYYY-MM-DD' },
        });
        expect(badFields({ created_after: '2024-02-30' }, MEMBER_LIST)).toEqual(['created_after']);
        expect(
          parseListQuery({ created_after: '2024-02-29', created_before: '2025-01-01' }, MEMBER_LIST).filters.map(
            (f) => f.value,
          ),
        ).toEqual(['2024-02-29', '2025-01-01']);
      });

      it('timestamp: an offset is honoured (the Date is the right UTC instant)', () => {
        const value = (raw: string) => parseListQuery({ 'created_at[gt]': raw }, SPEC).filters[0].value as Date;
        expect(value('2024-03-10T10:00:00-05:00')).toBeInstanceOf(Date);
        expect(value('2024-03-10T10:00:00-05:00').toISOString()).toBe('2024-03-10T15:00:00.000Z');
        expect(value('2024-03-10T10:00:00+05:30').toISOString()).toBe('2024-03-10T04:30:00.000Z');
        expect(value('2024-03-10T10:00:00+0530').toISOString()).toBe('2024-03-10T04:30:00.000Z');
        expect(value('2024-03-10T23:30:00-03:00').toISOString()).toBe('2024-03-11T02:30:00.000Z');
        expect(value('2024-03-10T10:00:00Z').toISOString()).toBe('2024-03-10T10:00:00.000Z');
        expect(value('2024-03-10T10:00Z').toISOString()).toBe('2024-03-10T10:00:00.000Z');
        expect(value('2024-03-10T10:00:00.123Z').toISOString()).toBe('2024-03-10T10:00:00.123Z');
        // A bare date is midnight UTC.
        expect(value('2024-03-10').toISOString()).toBe('2024-03-10T00:00:00.000Z');
      });

      it('timestamp: a time without an offset, an impossible date or time, or free text is rejected', () => {
        for (const raw of [
          '2024-03-10T10:00:00',
          '2024-02-30T10:00:00Z',
          '2023-02-29T00:00:00Z',
          '2024-03-10T25:00:00Z',
          '2024-03-10T10:61:00Z',
          '2024-03-10 10:00:00Z',
          'yesterday',
          '1710064800',
          '2024-03-10T10:00:00+5',
        ]) {
          expect(badFields({ 'created_at[lt]': raw })).toEqual(['created_at[lt]']);
        }
        expect(failure({ created_at: 'x' }).errors[0]).toMatchObject({
          issue: 'invalid_format',
          params: { format: 'ISO 8601' },
        });
      });

      it('member age filter takes integers, all comparison operators', () => {
        for (const op of ['ne', 'gt', 'gte', 'lt', 'lte']) {
          expect(parseListQuery({ [`age[${op}]`]: '30' }, MEMBER_LIST).filters).toEqual([
            { field: 'age', op, value: 30 },
          ]);
        }
        expect(badFields({ age: 'thirty' }, MEMBER_LIST)).toEqual(['age']);
      });
    });
  });

  describe('errors', () => {
    it('lists every bad parameter in one 400, in one invalid_parameter answer', () => {
      const error = failure({
        limit: '0',
        sort: 'bogus',
        color: 'red',
        'score[gt]': 'x',
        'name[gt]': 'a',
        paid: 'maybe',
        kind: 'a',
      });
      expect(error.code).toBe('invalid_parameter');
      expect(error.status).toBe(400);
      expect(error.errors.map((e) => e.field).sort()).toEqual(
        ['color', 'limit', 'name[gt]', 'paid', 'score[gt]', 'sort'].sort(),
      );
      for (const field of ['limit', 'sort', 'color', 'score[gt]', 'name[gt]', 'paid'])
        expect(String(error.params.parameter)).toContain(field);
    });

    it('an unknown sort and a duplicate are both reported', () => {
      const error = failure({ sort: 'bogus,name,name' });
      expect(error.errors.map((e) => e.issue)).toEqual(['not_sortable', 'invalid']);
    });
  });

  describe('cursor', () => {
    it('is decoded against the sort of the request', () => {
      const cursor = encodeCursor({ sort: 'name,-score', values: ['Ana', 'B'], id: UUID });
      expect(parseListQuery({ sort: 'name,-score', cursor }, SPEC).cursor).toEqual({
        sort: 'name,-score',
        values: ['Ana', 'B'],
        id: UUID,
      });
    });

    it('the default sort applies to a cursor when sort is omitted', () => {
      const cursor = encodeCursor({ sort: '-created_at', values: ['2024-01-01T00:00:00.000Z'], id: UUID });
      expect(parseListQuery({ cursor }, SPEC).cursor?.id).toBe(UUID);
    });

    it('a cursor made for another sort is invalid_parameter on cursor', () => {
      const cursor = encodeCursor({ sort: 'name', values: ['Ana'], id: UUID });
      for (const sort of ['-name', 'score', 'name,score', 'created_at']) {
        const error = failure({ sort, cursor });
        expect(error.code).toBe('invalid_parameter');
        expect(error.errors).toEqual([{ field: 'cursor', issue: 'invalid', params: {} }]);
      }
    });

    it('garbage and repeated cursors are invalid_parameter', () => {
      expect(badFields({ cursor: 'not-a-cursor' })).toEqual(['cursor']);
      expect(badFields({ cursor: '%%%' })).toEqual(['cursor']);
      const cursor = encodeCursor({ sort: '-created_at', values: ['2024-01-01T00:00:00.000Z'], id: UUID });
      expect(badFields({ cursor: [cursor, cursor] })).toEqual(['cursor']);
    });
  });
});

describe('isRealDate', () => {
  it.each(['2024-02-29', '2000-02-29', '2023-12-31', '1900-01-01', '0001-01-01'])('%s is a real date', (d) =>
    expect(isRealDate(d)).toBe(true),
  );
  it.each([
    '2023-02-29',
    '1900-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-00-01',
    '2024-01-00',
    '2024-01-32',
    'abcd-ef-gh',
    '',
  ])('%j is not', (d) => expect(isRealDate(d)).toBe(false));
});
