/** Stable, client-facing error codes (CONTRACT §3). Each maps to exactly one HTTP status. */
export const ERROR_CODES = [
  'member_merged',
  'missing_tenant',
  'invalid_json',
  'invalid_parameter',
  'invalid_idempotency_key',
  'invalid_signature',
  'unauthorized',
  'token_expired',
  'token_revoked',
  'tenant_forbidden',
  'scope_insufficient',
  'tenant_inactive',
  'scope_not_allowed',
  'token_type_not_allowed',
  'origin_not_allowed',
  'resource_not_found',
  'route_not_found',
  'method_not_allowed',
  'not_acceptable',
  'idempotency_in_progress',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'invalid_webhook_url',
  'idempotency_key_reused',
  'public_url_required',
  'batch_total_mismatch',
  'refund_exceeds_remaining',
  'event_full',
  'event_canceled',
  'already_checked_in',
  'security_code_mismatch',
  'merge_invalid',
  'checkout_locked',
  'sync_cursor_expired',
  'rate_limited',
  'internal_error',
  'processor_unavailable',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'member_merged':
      return 301;
    case 'missing_tenant':
    case 'invalid_json':
    case 'invalid_parameter':
    case 'invalid_idempotency_key':
    case 'invalid_signature':
      return 400;
    case 'unauthorized':
    case 'token_expired':
    case 'token_revoked':
      return 401;
    case 'tenant_forbidden':
    case 'scope_insufficient':
    case 'tenant_inactive':
    case 'scope_not_allowed':
    case 'token_type_not_allowed':
    case 'origin_not_allowed':
      return 403;
    case 'resource_not_found':
    case 'route_not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'not_acceptable':
      return 406;
    case 'idempotency_in_progress':
    case 'conflict':
    case 'event_full':
    case 'event_canceled':
    case 'already_checked_in':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'validation_failed':
    case 'invalid_webhook_url':
    case 'idempotency_key_reused':
    case 'public_url_required':
    case 'batch_total_mismatch':
    case 'refund_exceeds_remaining':
    case 'security_code_mismatch':
    case 'merge_invalid':
      return 422;
    case 'sync_cursor_expired':
      return 410;
    case 'checkout_locked':
      return 423;
    case 'rate_limited':
      return 429;
    case 'internal_error':
      return 500;
    case 'processor_unavailable':
      return 502;
    case 'service_unavailable':
      return 503;
  }
}
