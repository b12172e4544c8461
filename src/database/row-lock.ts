/**
 * A row lock held until the transaction ends: `for_no_key_update` to change the row (writers run
 * one after the other, each on what the previous one committed), `pessimistic_write` (FOR UPDATE)
 * to delete it, `for_key_share` to point new rows at it (a concurrent delete waits, or has already
 * happened and the row is not found), `pessimistic_read` (FOR SHARE) to keep it as read (a
 * concurrent write of it, a soft delete included, waits).
 */
export type RowLock = 'for_no_key_update' | 'pessimistic_write' | 'for_key_share' | 'pessimistic_read';

/** TypeORM find options for the lock, if any. */
export function withLock(lock?: RowLock): { lock?: { mode: RowLock } } {
  return lock ? { lock: { mode: lock } } : {};
}

/** The locking clause of a plain SQL SELECT for the lock, if any. */
export function lockClause(lock?: RowLock): string {
  return lock
    ? {
        for_no_key_update: 'FOR NO KEY UPDATE',
        pessimistic_write: 'FOR UPDATE',
        for_key_share: 'FOR KEY SHARE',
        pessimistic_read: 'FOR SHARE',
      }[lock]
    : '';
}
