import { isRealDate } from '../../common/lists/list-query';

/** An ISO 8601 date-time, with a zone (`Z`, `+02:00`) or without one (a wall-clock time in the event's time zone). */
export const EVENT_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** An IANA zone name (Region/City, Etc/GMT+5, UTC): not an offset such as +05:00, which Intl would also take. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size < 1000) formatters.set(timeZone, f);
  }
  return f;
}

/** True for a time zone name Intl knows (IANA names only). */
export function isIanaTimeZone(value: string): boolean {
  if (value.length > 64 || !IANA_NAME.test(value)) return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant of an EVENT_TIME string: as written when it carries a zone, else the wall-clock time
 * in `timeZone` (a wall time skipped by a DST change moves forward by the gap; a repeated one takes
 * one of its two instants). Null when the string is not a real date-time.
 */
export function toInstant(value: string, timeZone: string): Date | null {
  const m = EVENT_TIME.exec(value);
  if (!m || !isRealDate(value.slice(0, 10))) return null;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[8]) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const ms = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), hour, minute, second, ms);
  const first = wall - offsetAt(wall, timeZone);
  const second_ = wall - offsetAt(first, timeZone);
  return new Date(Math.max(first, second_));
}
