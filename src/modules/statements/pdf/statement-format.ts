import type { Language } from '../../../common/i18n/language';
import { CurrencyCode, exponentOf, toMajorString } from '../../../common/money/currencies';
import type { Address } from '../../members/member.entity';

/** The Intl locale of a church language (pt: Brazilian usage). */
export const LOCALE: Record<Language, string> = { es: 'es', en: 'en-US', pt: 'pt-BR' };

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * `123456, 'USD', 'en'` -> `USD 1,234.56`: the ISO code (never an ambiguous `$`: one statement may
 * hold pesos and dollars) and exactly the currency's digits from the money table, formatted from the
 * exact decimal string (no float arithmetic).
 */
export function formatAmount(amount: number, currency: CurrencyCode, lang: Language): string {
  const key = `${lang}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = exponentOf(currency);
    format = new Intl.NumberFormat(LOCALE[lang], {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format.format(toMajorString(amount, currency) as unknown as number);
}

/** `2025-03-09` -> `09/03/2025` (es, pt) or `03/09/2025` (en): a calendar date, no time zone shift. */
export function formatDate(day: string, lang: Language, style: 'short' | 'long' = 'short'): string {
  const options: Intl.DateTimeFormatOptions =
    style === 'short'
      ? { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }
      : { dateStyle: 'long', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(LOCALE[lang], options).format(new Date(`${day}T00:00:00Z`));
}

/** Today's date (YYYY-MM-DD) in `timezone`; in UTC when the runtime does not know the zone. */
export function todayIn(timezone: string, now = new Date()): string {
  try {
    return now.toLocaleDateString('en-CA', { timeZone: timezone });
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** The printed lines of an address: street lines, then city, region and postal code, then country. */
export function addressLines(address: Address | null | undefined): string[] {
  if (!address) return [];
  const place = [[address.city, address.region].filter(Boolean).join(', '), address.postal_code]
    .filter(Boolean)
    .join(' ');
  return [address.line1, address.line2, place, address.country].filter((line): line is string =>
    Boolean(line && line.trim()),
  );
}

/** The characters the PDF standard fonts (WinAnsiEncoding) can draw beyond Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Text the standard fonts can draw: Latin-1 and the WinAnsi extras as they are (á ñ ç ã ü €),
 * every kind of space as a space, other letters without their accents when that makes them
 * drawable (ő -> o), anything else as `?` (the PDF would show a wrong glyph instead).
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)) out += char;
    else if (/\s/u.test(char)) out += ' ';
    else {
      const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += bare.length === 1 && bare.codePointAt(0)! < 0x7f && bare !== char ? bare : '?';
    }
  }
  return out;
}
