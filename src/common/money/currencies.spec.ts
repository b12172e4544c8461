import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toFieldIssues } from '../validation/validation-issues';
import {
  CURRENCIES,
  CURRENCY_CODES,
  exponentOf,
  formatMoney,
  isCurrency,
  isValidAmount,
  MAX_AMOUNT,
  sumByCurrency,
  toMajorString,
} from './currencies';
import { IsAmount, IsCurrency } from './money.validators';

class Gift {
  @IsAmount() amount: number;
  @IsCurrency() currency: string;
}

async function issuesOf(body: object) {
  const errors = await validate(plainToInstance(Gift, body), { stopAtFirstError: true });
  return toFieldIssues(errors).map(({ field, issue }) => ({ field, issue }));
}

describe('the currency table', () => {
  it('holds the codes CONTRACT §12 names, with their ISO 4217 exponents', () => {
    for (const code of [
      'USD',
      'EUR',
      'MXN',
      'COP',
      'ARS',
      'PEN',
      'BRL',
      'GTQ',
      'DOP',
      'CRC',
      'HNL',
      'BOB',
      'UYU',
      'CAD',
      'GBP',
    ])
      expect(exponentOf(code as never)).toBe(2);
    expect(CURRENCIES.CLP).toBe(0);
    expect(CURRENCIES.PYG).toBe(0);
    expect(CURRENCIES.KWD).toBe(3);
    expect(CURRENCY_CODES.every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
  });

  it('knows only upper-case codes of the table', () => {
    expect(isCurrency('USD')).toBe(true);
    for (const value of ['usd', 'XXX', 'US', '', 'toString', '__proto__', 1, null, undefined])
      expect(isCurrency(value)).toBe(false);
  });

  it('amounts are integers of minor units from 1 to 100,000,000', () => {
    expect(isValidAmount(1)).toBe(true);
    expect(isValidAmount(MAX_AMOUNT)).toBe(true);
    for (const value of [0, -5, MAX_AMOUNT + 1, 10.5, '1000', NaN, Infinity, null])
      expect(isValidAmount(value)).toBe(false);
  });

  it('writes minor units as major units with the currency’s digits, without float arithmetic', () => {
    expect(toMajorString(12345, 'USD')).toBe('123.45');
    expect(toMajorString(5, 'USD')).toBe('0.05');
    expect(toMajorString(100_000_000, 'USD')).toBe('1000000.00');
    expect(toMajorString(1500, 'CLP')).toBe('1500');
    expect(toMajorString(1234, 'KWD')).toBe('1.234');
    expect(toMajorString(-250, 'EUR')).toBe('-2.50');
  });

  it('formats for people in their language', () => {
    expect(formatMoney(12345, 'USD', 'en')).toBe('$123.45');
    expect(formatMoney(1234567, 'CLP', 'es')).toMatch(/^1\.234\.567\s?(CLP|\$)/);
    expect(formatMoney(999_999_99, 'USD', 'en')).toBe('$999,999.99');
    expect(formatMoney(10, 'BRL', 'pt')).toMatch(/0,10/);
  });

  it('sums per currency, never mixed', () => {
    const totals = sumByCurrency([
      { currency: 'USD', amount: 100 },
      { currency: 'MXN', amount: 5000 },
      { currency: 'USD', amount: 250 },
    ]);
    expect([...totals]).toEqual([
      ['USD', 350],
      ['MXN', 5000],
    ]);
  });
});

describe('IsAmount / IsCurrency (DTO rules)', () => {
  it('accepts an integer amount and a known currency', async () => {
    expect(await issuesOf({ amount: 2500, currency: 'MXN' })).toEqual([]);
  });

  it('a float or a string amount is invalid_type; zero, negative or too large is out_of_range', async () => {
    expect(await issuesOf({ amount: 10.5, currency: 'USD' })).toEqual([{ field: 'amount', issue: 'invalid_type' }]);
    expect(await issuesOf({ amount: '1000', currency: 'USD' })).toEqual([{ field: 'amount', issue: 'invalid_type' }]);
    expect(await issuesOf({ amount: 0, currency: 'USD' })).toEqual([{ field: 'amount', issue: 'out_of_range' }]);
    expect(await issuesOf({ amount: -1, currency: 'USD' })).toEqual([{ field: 'amount', issue: 'out_of_range' }]);
    expect(await issuesOf({ amount: MAX_AMOUNT + 1, currency: 'USD' })).toEqual([
      { field: 'amount', issue: 'out_of_range' },
    ]);
  });

  it('an unknown or lower-case currency is one_of', async () => {
    for (const currency of ['XXX', 'usd', 'US', 5])
      expect(await issuesOf({ amount: 100, currency })).toEqual([{ field: 'currency', issue: 'one_of' }]);
  });
});
