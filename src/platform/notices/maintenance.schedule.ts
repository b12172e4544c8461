/** Daily maintenance runs at this hour, UTC (the BullMQ scheduler and the in-process timer alike). */
export const DAILY_HOUR_UTC = 8;
export const DAILY_PATTERN = `0 ${DAILY_HOUR_UTC} * * *`;

/** The next daily run strictly after `now`. */
export function nextDailyRun(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DAILY_HOUR_UTC));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}
