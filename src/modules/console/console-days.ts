/** A form's day (YYYY-MM-DD, UTC) as the instant it starts, `plusDays` later; anything else as sent (the API refuses it). */
export function dayStart(day: string, plusDays: number): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return day;
  return new Date(at.getTime() + plusDays * 86_400_000).toISOString();
}
