import { AppError } from '../errors/app-error';
import { Cursor, decodeCursor, encodeCursor } from './cursor';

const UUID = '0192f0c1-a2b3-7c4d-8e9f-0a1b2c3d4e5f';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

type ValueType = 'text' | 'timestamp' | 'date' | 'integer';
const texts = (count: number): ValueType[] => Array.from({ length: count }, () => 'text');
const typesOf = (values: unknown[]): ValueType[] =>
  values.map((v) =>
    typeof v === 'string' && /T.*Z$/.test(v)
      ? 'timestamp'
      : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? 'date'
        : 'text',
  );

function rejected(raw: string, sort: string, count: number | ValueType[]): AppError {
  try {
    decodeCursor(raw, sort, typeof count === 'number' ? texts(count) : count);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`cursor ${raw} was accepted`);
}

function expectInvalid(raw: string, sort: string, count: number | ValueType[]): void {
  const error = rejected(raw, sort, count);
  expect(error.code).toBe('invalid_parameter');
  expect(error.status).toBe(400);
  expect(error.errors).toEqual([{ field: 'cursor', issue: 'invalid', params: {} }]);
}

describe('cursor', () => {
  describe('encode/decode round trip', () => {
    const cases: Cursor[] = [
      { sort: 'created_at', values: ['2024-01-01T00:00:00.000Z'], id: UUID },
      { sort: '-last_name', values: ['Muñoz'], id: UUID },
      { sort: 'age', values: [null], id: UUID },
      { sort: '-created_at,last_name', values: ['2024-06-30T23:59:59.999Z', 'O\'Brien, "Jr" / +=?&'], id: UUID },
      { sort: 'name,-age', values: ['Ana', '1980-02-29'], id: UUID },
      { sort: 'name', values: [''], id: UUID },
      { sort: 'name', values: ['名前 😀'], id: UUID },
    ];

    it.each(cases)('%j', (cursor) => {
      const raw = encodeCursor(cursor);
      expect(decodeCursor(raw, cursor.sort, typesOf(cursor.values))).toEqual(cursor);
    });

    it('is URL-safe (base64url, no padding) and opaque', () => {
      for (const cursor of cases) {
        const raw = encodeCursor(cursor);
        expect(raw).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(encodeURIComponent(raw)).toBe(raw);
        expect(raw).not.toContain(cursor.id);
      }
    });

    it('is deterministic', () => {
      expect(encodeCursor(cases[3])).toBe(encodeCursor({ ...cases[3] }));
    });
  });

  describe('rejection', () => {
    const good = encodeCursor({ sort: 'last_name,-first_name', values: ['Ruiz', 'Ana'], id: UUID });

    it('the good cursor itself decodes', () => {
      expect(decodeCursor(good, 'last_name,-first_name', texts(2)).values).toEqual(['Ruiz', 'Ana']);
    });

    it('a cursor used with another sort', () => {
      for (const sort of [
        'last_name,first_name',
        '-last_name,-first_name',
        'last_name',
        'first_name,-last_name',
        'created_at',
        '',
      ]) {
        expectInvalid(good, sort, sort.split(',').length);
      }
      expectInvalid(good, 'last_name,first_name', 2);
    });

    it('values that do not fit the field type (they would reach SQL as parameters)', () => {
      expectInvalid(b64(['created_at', ['not-a-date'], UUID]), 'created_at', ['timestamp']);
      expectInvalid(b64(['created_at', [12345], UUID]), 'created_at', ['timestamp']);
      expectInvalid(b64(['age', ['1980-02-30'], UUID]), 'age', ['date']);
      expectInvalid(b64(['age', [7], UUID]), 'age', ['date']);
      expectInvalid(b64(['last_name', [{ a: 1 }], UUID]), 'last_name', ['text']);
      expect(decodeCursor(b64(['age', [null], UUID]), 'age', ['date']).values).toEqual([null]);
      // integer sorts (amount): a safe integer only, never a string, a float or an unsafe number
      expect(decodeCursor(b64(['amount', [12345], UUID]), 'amount', ['integer']).values).toEqual([12345]);
      for (const value of ['12345', 1.5, 2 ** 60, true, { a: 1 }])
        expectInvalid(b64(['amount', [value], UUID]), 'amount', ['integer']);
    });

    it('a cursor whose number of values does not match the sort', () => {
      expectInvalid(good, 'last_name,-first_name', 1);
      expectInvalid(good, 'last_name,-first_name', 3);
      expectInvalid(b64(['last_name', [], UUID]), 'last_name', 1);
    });

    it('garbage that is not base64url JSON', () => {
      for (const raw of ['x', 'not a cursor', '%%%', '!!!!', 'e30', 'bnVsbA', 'W10', ''])
        expectInvalid(raw, 'last_name', 1);
    });

    it('well-formed JSON of the wrong shape', () => {
      for (const value of [
        null,
        {},
        'last_name',
        [],
        ['last_name', ['Ruiz']],
        ['last_name', ['Ruiz'], UUID, 'extra'],
        ['last_name', 'Ruiz', UUID],
        ['last_name', [{ v: 1 }], UUID],
        ['last_name', [true], UUID],
        ['last_name', [['Ruiz']], UUID],
        ['last_name', ['Ruiz'], 42],
        ['last_name', ['Ruiz'], null],
        [null, ['Ruiz'], UUID],
      ]) {
        expectInvalid(b64(value), 'last_name', 1);
      }
    });

    it('an id that is not a UUID', () => {
      for (const id of [
        '',
        'abc',
        UUID.toUpperCase(),
        `${UUID}0`,
        UUID.slice(1),
        `mem_${UUID.replace(/-/g, '')}`,
        "'; DROP TABLE members; --",
      ]) {
        expectInvalid(b64(['last_name', ['Ruiz'], id]), 'last_name', 1);
      }
    });

    it('any single-character change that alters the sort, the shape or the id is rejected', () => {
      // Tamper with the decoded JSON one character at a time and re-encode; every variant either
      // decodes to exactly the same sort and a well-formed id, or is rejected (never a crash).
      const json = JSON.stringify(['last_name', ['Ruiz'], UUID]);
      for (let i = 0; i < json.length; i++) {
        for (const ch of ['x', '"', ']', '0', '-']) {
          if (json[i] === ch) continue;
          const tampered = json.slice(0, i) + ch + json.slice(i + 1);
          const raw = Buffer.from(tampered).toString('base64url');
          let decoded: Cursor;
          try {
            decoded = decodeCursor(raw, 'last_name', texts(1));
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).code).toBe('invalid_parameter');
            continue;
          }
          expect(decoded.sort).toBe('last_name');
          expect(decoded.values).toHaveLength(1);
          expect(decoded.id).toMatch(/^[0-9a-f-]{36}$/);
        }
      }
    });

    it('a tampered base64 cursor (characters flipped) never decodes to another sort', () => {
      const raw = encodeCursor({ sort: 'last_name', values: ['Ruiz'], id: UUID });
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      for (let i = 0; i < raw.length; i++) {
        for (const ch of ['A', 'z', '-', '_', '9']) {
          if (raw[i] === ch || !alphabet.includes(ch)) continue;
          const tampered = raw.slice(0, i) + ch + raw.slice(i + 1);
          try {
            const decoded = decodeCursor(tampered, 'last_name', texts(1));
            expect(decoded.sort).toBe('last_name');
          } catch (error) {
            expect((error as AppError).code).toBe('invalid_parameter');
          }
        }
      }
    });
  });
});
