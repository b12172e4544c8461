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

/** True when the code is safe to print: none of the banned sequences appears in it. */
export function isAllowedCode(code: string): boolean {
  return !BANNED_SEQUENCES.some((sequence) => code.includes(sequence));
}

/** A random code of the alphabet that is not banned (uniqueness is the database's unique index). */
export function newSecurityCode(): string {
  for (;;) {
    let code = '';
    for (let i = 0; i < SECURITY_CODE_LENGTH; i++) code += SECURITY_CODE_ALPHABET[randomInt(SECURITY_CODE_ALPHABET.length)];
    if (isAllowedCode(code)) return code;
  }
}
