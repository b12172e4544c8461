/** The delay before run `attempt + 1` after `attempt` failed runs: base, 2×base, 4×base… (BullMQ's exponential backoff). */
export function jobBackoffMs(baseMs: number, failedAttempts: number): number {
  return baseMs * 2 ** Math.max(0, failedAttempts - 1);
}
