import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { generateToken, hashToken, isWellFormedToken, TOKEN_PREFIX, TokenKind } from './token-format';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KINDS = Object.keys(TOKEN_PREFIX) as TokenKind[];

/** Independent re-implementation of the documented checksum: 6 base62 digits of CRC32(body), most significant first. */
function expectedChecksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

describe('token format', () => {
  it('has one prefix per kind, as in the contract', () => {
    expect(TOKEN_PREFIX).toEqual({ pat: 'chp_', service: 'chs_', kiosk: 'chk_', oauth: 'cho_', refresh: 'chr_' });
  });

  describe.each(KINDS)('generateToken(%s)', (kind) => {
    const tokens = Array.from({ length: 200 }, () => generateToken(kind));

    it('starts with the prefix of its kind and is prefix + 36 base62 characters', () => {
      for (const token of tokens) {
        expect(token.startsWith(TOKEN_PREFIX[kind])).toBe(true);
        expect(token).toHaveLength(4 + 36);
        expect(token.slice(4)).toMatch(/^[0-9A-Za-z]{36}$/);
      }
    });

    it('is well formed, and its last 6 characters are the base62 CRC32 of the rest', () => {
      for (const token of tokens) {
        expect(isWellFormedToken(token)).toBe(true);
        expect(token.slice(-6)).toBe(expectedChecksum(token.slice(0, -6)));
      }
    });

    it('is random (no repeats)', () => {
      expect(new Set(tokens).size).toBe(tokens.length);
    });
  });

  it('the random part uses the whole base62 alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) for (const ch of generateToken('pat').slice(4, 34)) seen.add(ch);
    expect(seen.size).toBe(62);
  });

  describe('isWellFormedToken', () => {
    const token = generateToken('pat');

    it('fails the checksum after any one-character change anywhere after the prefix', () => {
      let tried = 0;
      for (let i = 4; i < token.length; i++) {
        for (const ch of BASE62) {
          if (ch === token[i]) continue;
          const changed = token.slice(0, i) + ch + token.slice(i + 1);
          expect(isWellFormedToken(changed)).toBe(false);
          tried++;
        }
      }
      expect(tried).toBe(36 * 61);
    });

    it('fails when the prefix is changed to another kind (the checksum covers the prefix)', () => {
      for (const prefix of Object.values(TOKEN_PREFIX)) {
        if (prefix === 'chp_') continue;
        expect(isWellFormedToken(prefix + token.slice(4))).toBe(false);
      }
    });

    it('fails two swapped adjacent characters', () => {
      for (let i = 4; i < token.length - 1; i++) {
        if (token[i] === token[i + 1]) continue;
        const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
        expect(isWellFormedToken(swapped)).toBe(false);
      }
    });

    it('rejects the wrong shape without looking further', () => {
      const body = 'chx_' + token.slice(4, 34);
      for (const value of [
        '',
        'chp_',
        token.slice(0, -1),
        token + 'a',
        ` ${token}`,
        `${token} `,
        `${token}\n`,
        token.toUpperCase(),
        'CHP_' + token.slice(4),
        'chx_' + token.slice(4),
        body + expectedChecksum(body),
        'chp-' + token.slice(4),
        token.slice(0, 10) + '-' + token.slice(11),
        token.slice(0, 10) + 'é' + token.slice(11),
      ]) {
        expect(isWellFormedToken(value)).toBe(false);
      }
    });

    it('accepts a hand-built token with a correct checksum for every kind', () => {
      for (const prefix of Object.values(TOKEN_PREFIX)) {
        const body = prefix + 'a'.repeat(30);
        expect(isWellFormedToken(body + expectedChecksum(body))).toBe(true);
        const zeros = prefix + '0'.repeat(30);
        expect(isWellFormedToken(zeros + expectedChecksum(zeros))).toBe(true);
      }
    });
  });

  describe('hashToken', () => {
    it('is the 32-byte SHA-256 of the token text', () => {
      const token = generateToken('service');
      const hash = hashToken(token);
      expect(Buffer.isBuffer(hash)).toBe(true);
      expect(hash).toHaveLength(32);
      expect(hash.equals(createHash('sha256').update(token, 'utf8').digest())).toBe(true);
    });

    it('matches the SHA-256 test vector', () => {
      expect(hashToken('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });

    it('is deterministic and differs between tokens', () => {
      const a = generateToken('pat');
      const b = generateToken('pat');
      expect(hashToken(a).equals(hashToken(a))).toBe(true);
      expect(hashToken(a).equals(hashToken(b))).toBe(false);
    });
  });
});
