/**
 * Money, done once (CONTRACT §12). An amount is an integer in the currency's minor unit (cents for
 * USD, whole pesos for CLP); a currency is an upper-case ISO 4217 code from this table, which is
 * the only list of allowed currencies and of their exponents (digits after the decimal point).
 * Sums are kept per currency, never mixed.
 */
export const CURRENCIES = {
  USD: 2,
  EUR: 2,
  MXN: 2,
  COP: 2,
  ARS: 2,
  CLP: 0,
  PEN: 2,
  BRL: 2,
  GTQ: 2,
  DOP: 2,
  CRC: 2,
  HNL: 2,
  BOB: 2,
  PYG: 0,
  UYU: 2,
  CAD: 2,
  GBP: 2,
  NIO: 2,
  PAB: 2,
  VES: 2,
  BZD: 2,
  JMD: 2,
  TTD: 2,
  AUD: 2,
  NZD: 2,
  CHF: 2,
  JPY: 0,
  KRW: 0,
  PHP: 2,
  INR: 2,
  NGN: 2,
  GHS: 2,
  KES: 2,
  ZAR: 2,
  XAF: 0,
  XOF: 0,
  KWD: 3,
  BHD: 3,
} as const satisfies Record<string, 0 | 2 | 3>;

export type CurrencyCode = keyof typeof CURRENCIES;

/** Every allowed code, in the table's order (the OpenAPI enum). */
export const CURRENCY_CODES = Object.keys(CURRENCIES) as CurrencyCode[];

/** The largest amount of one gift, in minor units (whatever the currency). */
export const MAX_AMOUNT = 100_000_000;

export function isCurrency(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && Object.hasOwn(CURRENCIES, value);
}

/** Digits after the decimal point of `currency` (2 for USD, 0 for CLP and PYG, 3 for KWD). */
export function exponentOf(currency: CurrencyCode): number {
  return CURRENCIES[currency];
}

/** A valid gift amount: a safe integer from 1 to MAX_AMOUNT minor units (a float or a string is not). */
export function isValidAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_AMOUNT;
}

/** `12345, 'USD'` -> `'123.45'`: the amount in major units with exactly the currency's digits (no float arithmetic). */
export function toMajorString(amount: number, currency: CurrencyCode): string {
  const exponent = exponentOf(currency);
  const negative = amount < 0;
  const digits = String(Math.abs(Math.trunc(amount))).padStart(exponent + 1, '0');
  const major = exponent ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
  return negative ? `-${major}` : major;
}

/**
 * `12345, 'USD', 'en'` -> `'$123.45'`; `'es'` -> `'123,45 US$'`: for people (statements, mails).
 * Intl formats from the exact decimal string, so no float rounding reaches the printed digits.
 */
export function formatMoney(amount: number, currency: CurrencyCode, locale = 'en'): string {
  const exponent = exponentOf(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  return format.format(toMajorString(amount, currency) as unknown as number);
}

/** Adds amounts per currency: `[{currency, amount}]` -> Map(currency -> total). Never mixes currencies. */
export function sumByCurrency<T extends { currency: string; amount: number }>(rows: T[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.currency, (totals.get(row.currency) ?? 0) + row.amount);
  return totals;
}
