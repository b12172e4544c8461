import type { FieldIssue } from '../../common/errors/app-error';
import { isRealDate } from '../../common/lists/list-query';

/** Clock skew allowed between a client and the server for a gift received "now". */
const FUTURE_SLACK_MS = 5 * 60_000;

/** A body's `received_at` (already of the ISO 8601 shape): a real instant from 1900 on and not in the future; undefined when absent or null (now), or refused (an issue is added). */
export function readReceivedAt(value: string | null | undefined, issues: FieldIssue[]): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !isRealDate(value.slice(0, 10))) {
    issues.push({ field: 'received_at', issue: 'invalid_format', params: { format: 'ISO 8601 with a time zone' } });
    return undefined;
  }
  if (date.getTime() > Date.now() + FUTURE_SLACK_MS) {
    issues.push({ field: 'received_at', issue: 'in_future' });
    return undefined;
  }
  if (date.getUTCFullYear() < 1900) {
    issues.push({ field: 'received_at', issue: 'out_of_range', params: { min: '1900-01-01', max: 'now' } });
    return undefined;
  }
  return date;
}
