import type { FieldIssue } from '../../common/errors/app-error';
import { isRealDate } from '../../common/lists/list-query';

/** An ISO 8601 timestamp with its time zone (Z or an offset): an arrival time is never ambiguous. */
export const TIMESTAMP_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Clock skew allowed between a kiosk or a client and the server. */
const FUTURE_SLACK_MS = 5 * 60_000;

/**
 * A row's `checked_in_at`: a real instant from 1900 on, not in the future; undefined when absent or
 * null (now), or refused (an issue on `field` is added).
 */
export function readCheckedInAt(value: unknown, issues: FieldIssue[], field = 'checked_in_at'): Date | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.push({ field, issue: 'invalid_type', params: { type: 'string' } });
    return undefined;
  }
  const date = TIMESTAMP_WITH_ZONE.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime()) || !isRealDate(value.slice(0, 10))) {
    issues.push({ field, issue: 'invalid_format', params: { format: 'ISO 8601 with a time zone' } });
    return undefined;
  }
  if (date.getTime() > Date.now() + FUTURE_SLACK_MS) {
    issues.push({ field, issue: 'in_future' });
    return undefined;
  }
  if (date.getUTCFullYear() < 1900) {
    issues.push({ field, issue: 'out_of_range', params: { min: '1900-01-01', max: 'now' } });
    return undefined;
  }
  return date;
}
