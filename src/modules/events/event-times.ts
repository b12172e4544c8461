import type { FieldIssue } from '../../common/errors/app-error';
import type { CampusEntity } from '../campuses/campus.entity';
import { isIanaTimeZone, toInstant } from './zoned-time';

/** How an event body's time zone and times are read: each problem is an issue naming its field. */

const TIMEZONE_FORMAT = 'IANA time zone'; // translated in FORMAT_CATALOG

/** The given zone (checked), else the campus's, else UTC; null (with an issue) for an unknown name. */
export function readTimezone(
  value: string | null | undefined,
  campus: CampusEntity | null,
  issues: FieldIssue[],
): string | null {
  if (value === undefined || value === null)
    return campus?.timezone && isIanaTimeZone(campus.timezone) ? campus.timezone : 'UTC';
  if (isIanaTimeZone(value)) return value;
  issues.push({ field: 'timezone', issue: 'invalid_format', params: { format: TIMEZONE_FORMAT } });
  return null;
}

/** starts_at and ends_at, the end after the start. */
export function readTimes(
  starts: string,
  ends: string,
  timezone: string,
  issues: FieldIssue[],
): { startsAt: Date; endsAt: Date } | null {
  const startsAt = readTime('starts_at', starts, timezone, issues);
  const endsAt = readTime('ends_at', ends, timezone, issues);
  if (!startsAt || !endsAt) return null;
  if (endsAt <= startsAt) {
    issues.push({ field: 'ends_at', issue: 'not_after_start' });
    return null;
  }
  return { startsAt, endsAt };
}

/** An ISO 8601 time (a local one read in `timezone`) of the years 1900 to 9999. */
export function readTime(field: string, value: string, timezone: string, issues: FieldIssue[]): Date | null {
  const instant = toInstant(value, timezone);
  if (!instant) {
    issues.push({ field, issue: 'invalid_format', params: { format: 'ISO 8601' } });
    return null;
  }
  const year = instant.getUTCFullYear();
  if (year < 1900 || year > 9999) {
    issues.push({ field, issue: 'out_of_range', params: { min: '1900-01-01', max: '9999-12-31' } });
    return null;
  }
  return instant;
}
