import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENT_METADATA = 'church:idempotent';

export interface IdempotentOptions {
  /**
   * The response's top-level field that carries a secret shown once (a token value, a signing
   * secret): it is never stored, and a replay answers it as null.
   */
  secret?: string;
}

/** A creating POST that honours `Idempotency-Key` (CONTRACT §5b). */
export function Idempotent(options: IdempotentOptions = {}) {
  const secretNote = options.secret
    ? ` The secret \`${options.secret}\` is not kept: a replay answers it as \`null\` (create again, or roll it, if it was lost).`
    : '';
  return applyDecorators(
    SetMetadata(IDEMPOTENT_METADATA, options),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'A UUID v4. A retry with the same key within 24 hours returns the original response (with `Idempotent-Replayed: true`) without running the operation again; the same key with another body is a 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_in_progress`.' +
        secretNote,
      schema: { type: 'string', format: 'uuid' },
    }),
  );
}
