import { AppError } from '../errors/app-error';
import { isUuid } from '../ids/id';
import { isStorableText } from '../validation/text';

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

type CursorValueType = 'text' | 'timestamp' | 'date' | 'integer';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function validValue(value: unknown, type: CursorValueType): boolean {
  if (value === null) return true;
  if (type === 'integer') return Number.isSafeInteger(value);
  if (typeof value !== 'string') return false;
  // Round trips: Date.parse reads 2024-02-30 as March 1 (PostgreSQL refuses it) and 2024-99-01 as NaN.
  if (type === 'timestamp') return ISO_UTC.test(value) && isRoundTrip(value);
  if (type === 'date') return DATE.test(value) && isRoundTrip(`${value}T00:00:00.000Z`);
  return value.length <= 1000 && isStorableText(value);
}

/** The timestamp reads back as itself (NaN, an invalid date, fails too). */
function isRoundTrip(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** Decodes and checks a cursor against the sort it must belong to and the types of its fields. */
export function decodeCursor(raw: string, sort: string, types: CursorValueType[]): Cursor {
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
    parsed[1].length !== types.length ||
    !parsed[1].every((v, i) => validValue(v, types[i])) ||
    typeof parsed[2] !== 'string' ||
    !isUuid(parsed[2])
  ) {
    throw AppError.invalidParameter('cursor', 'invalid');
  }
  return { sort, values: parsed[1] as CursorValue[], id: parsed[2] };
}
