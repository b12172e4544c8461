import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Token values (CONTRACT §5): `<prefix>` + 30 base62 random characters + 6 base62 characters of
 * the CRC32 of everything before them. Secret scanners recognise the prefix; a mistyped token
 * fails the checksum and is refused without a database lookup.
 */
export const TOKEN_PREFIX = { pat: 'chp_', service: 'chs_', kiosk: 'chk_', oauth: 'cho_', refresh: 'chr_' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const SHAPE = /^ch[pskor]_[0-9A-Za-z]{36}$/;

function base62(value: number, width: number): string {
  let out = '';
  for (let n = value; out.length < width; n = Math.floor(n / 62)) out = BASE62[n % 62] + out;
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export function generateToken(kind: TokenKind): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  const body = TOKEN_PREFIX[kind] + random;
  return body + checksum(body);
}

/** Shape and checksum only; says nothing about whether the token exists. */
export function isWellFormedToken(value: string): boolean {
  if (!SHAPE.test(value)) return false;
  const body = value.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === value.slice(-CHECKSUM_LENGTH);
}

export function hashToken(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
