import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new signing secret: `whsec_` + 32 base62 characters. */
export function newSigningSecret(): string {
  let out = 'whsec_';
  for (let i = 0; i < 32; i++) out += BASE62[randomInt(62)];
  return out;
}
