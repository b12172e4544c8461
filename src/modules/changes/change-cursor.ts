import { AppError } from '../../common/errors/app-error';

/** A place in the change log: the commit-order position and the row's sequence within it. */
export interface ChangeKey {
  position: bigint;
  seq: bigint;
}

export const START: ChangeKey = { position: 0n, seq: 0n };

const FORMAT = /^1\.(\d{1,19})\.(\d{1,19})$/;

/** Opaque to clients: base64url of `1.<position>.<seq>` (the leading 1 is the cursor's version). */
export function encodeCursor(key: ChangeKey): string {
  return Buffer.from(`1.${key.position}.${key.seq}`).toString('base64url');
}

/** A cursor this API made, or a 400 naming `parameter`. */
export function decodeCursor(value: unknown, parameter: string): ChangeKey {
  const text =
    typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? Buffer.from(value, 'base64url').toString() : '';
  const match = FORMAT.exec(text);
  if (!match || BigInt(match[1]) > MAX || BigInt(match[2]) > MAX)
    throw AppError.invalidParameter(parameter, 'invalid_format', {
      format: 'a cursor from next_cursor or /v1/changes/head',
    });
  return { position: BigInt(match[1]), seq: BigInt(match[2]) };
}

const MAX = 2n ** 63n - 1n;

export function compareKeys(a: ChangeKey, b: ChangeKey): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}

export function laterOf(a: ChangeKey, b: ChangeKey): ChangeKey {
  return compareKeys(a, b) >= 0 ? a : b;
}
