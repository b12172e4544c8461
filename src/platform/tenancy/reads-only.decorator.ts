import { SetMetadata } from '@nestjs/common';

export const READS_ONLY = 'tenancy:reads-only';

/**
 * The handler only reads: its statements run without an explicit transaction, each in an implicit
 * one with the tenant's settings and `transaction_read_only` (a write fails), which saves the
 * round trip of COMMIT (Database.runInTenant, `readOnly`). For GET handlers whose statements do
 * not need one snapshot, such as a list page and its count.
 */
export const ReadsOnly = () => SetMetadata(READS_ONLY, true);
