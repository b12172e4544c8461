import { SetMetadata } from '@nestjs/common';

export const OUTSIDE_TRANSACTION = 'tenancy:outside-transaction';

/**
 * The handler calls the network (a webhook receiver, the payment processor): it runs without the
 * request's transaction and opens short ones for its database work (`Database.transaction`), so no
 * pooled connection waits on a remote server. Not for @Idempotent routes (their record must commit
 * with the work); the audit entry is written in a transaction of its own.
 */
export const OutsideTransaction = () => SetMetadata(OUTSIDE_TRANSACTION, true);
