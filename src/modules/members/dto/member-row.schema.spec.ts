import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { isEmail, validate } from 'class-validator';
import { CreateMemberDto } from './create-member.dto';
import { isEmailAddress, isValidMemberRow } from './member-row.schema';

const base = { first_name: 'Ana', last_name: 'Ruiz' };

/** The compiled schema is the fast path of bulk creation: it may refuse more, never accept more. */
const rows: Record<string, unknown>[] = [
  base,
  {
    ...base,
    email: 'ana@example.org',
    phone: '+5213312345678',
    birthdate: '1988-04-17',
    gender: 'female',
    status: 'member',
    campus: 'north',
    active: false,
  },
  { ...base, email: null, phone: null, birthdate: null, gender: null, campus: null, household_id: null, address: null },
  {
    ...base,
    household_id: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    address: { line1: 'Av. 1', city: 'GDL', country: 'MX' },
    custom_fields: { baptized: true, size: 'M', n: 3, x: null },
  },
  { ...base, first_name: '' },
  { ...base, first_name: 'x'.repeat(101) },
  { last_name: 'Ruiz' },
  { ...base, extra: 1 },
  { ...base, email: 'not-an-email' },
  { ...base, email: 'a@b' },
  { ...base, email: 'ana@example.org ' },
  { ...base, email: `${'a'.repeat(250)}@example.org` },
  { ...base, phone: '3312345678' },
  { ...base, phone: '+0123456789' },
  { ...base, birthdate: '2099-01-01' },
  { ...base, birthdate: '1988-02-30' },
  { ...base, birthdate: '1850-01-01' },
  { ...base, birthdate: '1988-4-7' },
  { ...base, gender: 'other' },
  { ...base, status: null },
  { ...base, status: 'owner' },
  { ...base, active: 'true' },
  { ...base, campus: 'x'.repeat(65) },
  { ...base, campus: 7 },
  { ...base, household_id: 'hh_XYZ' },
  { ...base, address: { country: 'mex' } },
  { ...base, address: { zip: '1' } },
  { ...base, address: 'Main St' },
  { ...base, custom_fields: { Bad: 1 } },
  { ...base, custom_fields: { nested: { a: 1 } } },
  { ...base, custom_fields: { list: [1] } },
  { ...base, custom_fields: { long: 'x'.repeat(501) } },
  { ...base, custom_fields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
  { ...base, custom_fields: null },
  { ...base, first_name: 7 },
];

describe('bulk member row schema', () => {
  it.each(rows.map((row, i) => [i, row]))(
    'row %i: accepted by the schema only if class-validator accepts it',
    async (_i, row) => {
      const errors = await validate(plainToInstance(CreateMemberDto, row), {
        whitelist: true,
        forbidNonWhitelisted: true,
      });
      if (isValidMemberRow(row)) expect(errors).toEqual([]);
    },
  );

  it('accepts the ordinary rows (the fast path is used)', () => {
    expect(rows.slice(0, 4).every((row) => isValidMemberRow(row))).toBe(true);
  });
});

describe('isEmailAddress', () => {
  const label63 = 'l'.repeat(63);
  const addresses = [
    'ana@example.org',
    'A.B+c_d%e-f@Mail.Example.ORG',
    'x@a-b.example.museum',
    `${'a'.repeat(64)}@example.org`,
    `${'a'.repeat(65)}@example.org`,
    `a@${label63}.org`,
    `a@${label63}l.org`,
    `a@b.${'c'.repeat(63)}`,
    `a@b.${'c'.repeat(64)}`,
    `${'a'.repeat(60)}@${`${label63}.`.repeat(3)}org`,
    `${'a'.repeat(64)}@${`${label63}.`.repeat(3)}org`,
    'a..b@example.org',
    '.a@example.org',
    'a.@example.org',
    'a@-x.org',
    'a@x-.org',
    'a@x..org',
    'a@.x.org',
    'a@x.o',
    'a@x.123',
    'a@x.o1',
    'a@x_y.org',
    'a@localhost',
    'a@b',
    'a@@example.org',
    'a@b@example.org',
    'a b@example.org',
    ' a@example.org',
    '"quoted"@example.org',
    "o'neil{x}@example.org",
    'ñandú@example.org',
    'a@bücher.de',
    'a@x.xn--p1ai',
    'a@[127.0.0.1]',
    'a@127.0.0.1',
    'ſ@example.org',
    'a@example.org\n',
    '',
  ];

  it.each(addresses)('%j: the same answer as isEmail', (address) => {
    expect(isEmailAddress(address)).toBe(isEmail(address));
  });
});
