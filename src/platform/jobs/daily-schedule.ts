/** Daily chores (DailyJobs) are asked for at this hour, UTC. */
export const DAILY_HOUR_UTC = 8;

/** The next daily run strictly after `now`. */
export function nextDailyRun(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DAILY_HOUR_UTC));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}
