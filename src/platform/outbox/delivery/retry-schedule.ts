const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30s,5m,1h,6h,24h` -> milliseconds; the delays before retries 1..n. */
export function parseRetrySchedule(text: string): number[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`invalid retry schedule entry: ${part}`);
    return Number(match[1]) * UNIT_MS[match[2]];
  });
}

/** The delay before the next try after `attemptsMade` failed attempts, with up to 10% jitter; null when retries are exhausted. */
export function nextDelay(schedule: number[], attemptsMade: number, random = Math.random): number | null {
  const base = schedule[attemptsMade - 1];
  return base === undefined ? null : Math.round(base * (1 + random() * 0.1));
}

/** The time the retries after the next one take (without jitter): the next try is the last when 0. */
export function remainingAfter(schedule: number[], attemptsMade: number): number {
  return schedule.slice(attemptsMade).reduce((sum, ms) => sum + ms, 0);
}
