import { AppError } from '../errors/app-error';

type CursorValue = string | number | null;

export interface Cursor {
  /** The sort the cursor was made for: a cursor is only valid with the same sort. */
  sort: string;
  values: CursorValue[];
  id: string;
}

/** Opaque, URL-safe cursor: the sort signature, the last row's sort values and its id. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.values, cursor.id])).toString('base64url');
}

export function decodeCursor(raw: string, sort: string, valueCount: number): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw AppError.invalidParameter('cursor', 'invalid');
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== sort ||
    !Array.isArray(parsed[1]) ||
    parsed[1].length !== valueCount ||
    !parsed[1].every((v) => v === null || typeof v === 'string' || typeof v === 'number') ||
    typeof parsed[2] !== 'string' ||
    !/^[0-9a-f-]{36}$/.test(parsed[2])
  ) {
    throw AppError.invalidParameter('cursor', 'invalid');
  }
  return { sort, values: parsed[1] as CursorValue[], id: parsed[2] };
}
