import { randomInt } from 'node:crypto';

/** The code alphabet (CONTRACT §11): no vowels, no 0/O/1/I, so no word is spelled and nothing is misread. */
export const SECURITY_CODE_ALPHABET = 'BCDFGHJKLMNPRSTXZ2456789';
export const SECURITY_CODE_LENGTH = 4;

/**
 * Letter groups a code may never contain, in any position: with no vowels in the alphabet, what is
 * left to avoid are consonant skeletons and digit spellings of slurs, swear words and drug or
 * violence words a child would wear on a sticker (English, Spanish, Portuguese). Documented in the
 * API description; 331,776 codes exist, and these remove under 5% of them.
 */
export const BANNED_SEQUENCES: readonly string[] = [
  'FCK',
  'FK',
  'FKN',
  'FGT',
  'SHT',
  'SH7',
  'BTCH',
  'B7CH',
  'DCK',
  'CNT',
  'KNT',
  'NGR',
  'NG6R',
  'NGG',
  'KKK',
  'XXX',
  'SX',
  'PRN',
  'TT5',
  'DMN',
  'HLL',
  'KLL',
  'DTH',
  'GNJ',
  'THC',
  'LSD',
  'CBD',
  'MDM',
  'DRG',
  'HTLR',
  'NZ',
  'PT4',
  'PTZ',
  'PND',
  'CLR',
  'CHNG',
  'MRD',
  'PLL',
  'PJ',
  'CZZ',
  'KCT',
  'BST',
  'MRC',
  'PNT',
  '666',
  '69',
  '88',
];

/** Letter groups a church may add to the built-in list (PUT /v1/settings/check-in): 2 to 4 characters of the alphabet. */
export const CHURCH_SEQUENCE = /^[BCDFGHJKLMNPRSTXZ2456789]{2,4}$/;
/** The `format` of a 422 for one that is not (FORMAT_CATALOG translates it). */
export const CHURCH_SEQUENCE_FORMAT = `characters of ${SECURITY_CODE_ALPHABET} (any case)`;

/** Draws before giving up on a list that leaves (almost) no code: far above what any allowed list needs. */
const DRAWS = 10_000;

/** True when the code is safe to print: none of the banned sequences (built-in, then the church's `extra`) appears in it. */
export function isAllowedCode(code: string, extra: readonly string[] = []): boolean {
  return (
    !BANNED_SEQUENCES.some((sequence) => code.includes(sequence)) && !extra.some((sequence) => code.includes(sequence))
  );
}

/**
 * A random code of the alphabet that contains neither a built-in sequence nor one of `extra` (the
 * church's own); uniqueness is the database's unique index. Null only when 10,000 draws found no
 * such code (a church's 200 sequences of 2 to 4 characters still leave over a quarter of all codes).
 */
export function newSecurityCode(extra: readonly string[] = []): string | null {
  for (let draw = 0; draw < DRAWS; draw++) {
    let code = '';
    for (let i = 0; i < SECURITY_CODE_LENGTH; i++)
      code += SECURITY_CODE_ALPHABET[randomInt(SECURITY_CODE_ALPHABET.length)];
    if (isAllowedCode(code, extra)) return code;
  }
  return null;
}
