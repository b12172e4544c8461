/** The cadences of a recurring gift (CONTRACT §12). */
export const INTERVALS = ['week', 'two_weeks', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

const DAYS: Partial<Record<Interval, number>> = { week: 7, two_weeks: 14 };
const MONTHS: Partial<Record<Interval, number>> = { month: 1, quarter: 3, year: 12 };
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` -> days since 1970-01-01 (UTC calendar). */
function toDays(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

function fromDays(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * The k-th charge date (k = 0 is start_on). Monthly cadences keep start_on's day of the month,
 * clamped to the month's last day (a gift started on Jan 31 charges Feb 28/29, Mar 31, Apr 30…);
 * each date is computed from start_on, so a short month never shifts the ones after it.
 */
export function chargeDate(startOn: string, interval: Interval, k: number): string {
  const days = DAYS[interval];
  if (days !== undefined) return fromDays(toDays(startOn) + k * days);
  const year = Number(startOn.slice(0, 4));
  const month = Number(startOn.slice(5, 7)) - 1 + k * MONTHS[interval]!;
  const day = Number(startOn.slice(8, 10));
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

/**
 * The first charge date on or after `today` (`YYYY-MM-DD`, UTC) in the schedule start_on +
 * k × interval, or null when it would fall after end_on. The schedule stays anchored on start_on:
 * a gift resumed after a pause charges on its next regular date, never on a shifted one.
 */
export function nextChargeOn(startOn: string, interval: Interval, endOn: string | null, today: string): string | null {
  let next: string;
  if (today <= startOn) {
    next = startOn;
  } else {
    const days = DAYS[interval];
    let k: number;
    if (days !== undefined) {
      k = Math.ceil((toDays(today) - toDays(startOn)) / days);
    } else {
      const months =
        (Number(today.slice(0, 4)) - Number(startOn.slice(0, 4))) * 12 +
        Number(today.slice(5, 7)) -
        Number(startOn.slice(5, 7));
      k = Math.max(0, Math.floor(months / MONTHS[interval]!));
      while (chargeDate(startOn, interval, k) < today) k++;
    }
    next = chargeDate(startOn, interval, k);
  }
  return endOn !== null && next > endOn ? null : next;
}
