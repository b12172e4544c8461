import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { BatchEntity } from './batch.entity';
import type { BatchResponse } from './dto/batch.response';

export function toBatchResponse(batch: BatchEntity, sums: { count: number; total: number } | undefined): BatchResponse {
  return {
    id: toPublicId(ID_PREFIX.batch, batch.id),
    description: batch.description,
    expected_total: batch.expectedTotal,
    currency: batch.currency,
    status: batch.status,
    count: sums?.count ?? 0,
    total: sums?.total ?? 0,
    committed_at: batch.committedAt ? batch.committedAt.toISOString() : null,
    created_at: batch.createdAt.toISOString(),
    updated_at: batch.updatedAt.toISOString(),
  };
}
