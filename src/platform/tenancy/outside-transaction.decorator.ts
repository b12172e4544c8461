import { SetMetadata } from '@nestjs/common';

export const OUTSIDE_TRANSACTION = 'tenancy:outside-transaction';

/**
 * The handler runs without the request's transaction and opens short ones for its database work
 * (`Database.transaction`): when it calls the network (a webhook receiver, the payment processor),
 * so that no pooled connection waits on a remote server, or when a refusal must keep what it wrote
 * (the kiosk checkout counts a wrong code, then answers 422: its transaction returns the refusal,
 * thrown once committed). Not for @Idempotent routes (their record must commit with the work); the
 * audit entry is written in a transaction of its own.
 */
export const OutsideTransaction = () => SetMetadata(OUTSIDE_TRANSACTION, true);
