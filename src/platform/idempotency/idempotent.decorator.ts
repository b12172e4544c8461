import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENT_METADATA = 'church:idempotent';

/** A creating POST that honours `Idempotency-Key` (CONTRACT §5b). */
export function Idempotent() {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_METADATA, true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'A UUID v4. A retry with the same key within 24 hours returns the original response (with `Idempotent-Replayed: true`) without running the operation again; the same key with another body is a 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_in_progress`.',
      schema: { type: 'string', format: 'uuid' },
    }),
  );
}
