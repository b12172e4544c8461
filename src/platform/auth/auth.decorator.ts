import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { Scope } from './scopes';

export const AUTH_METADATA = 'church:auth';

export interface AuthOptions {
  /** Every scope listed is required. */
  scopes: Scope[];
  /** A stricter endpoint quota (CONTRACT §7), applied by the rate limiter. */
  quota?: 'donations' | 'notifications' | 'tokens' | 'reports';
  /**
   * A route that manages credentials (tokens, authorized apps, kiosk keys): OAuth access tokens
   * and kiosk keys are refused (403 `token_type_not_allowed`), whatever their scopes.
   */
  credentials?: true;
}

/** The token types a credential route refuses. */
export const NOT_FOR_CREDENTIALS = ['oauth', 'kiosk'] as const;

export type RouteAccess = AuthOptions | 'public';

const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

/** A route that needs a bearer token, the X-Tenant header and the given scopes. */
export function Auth(options: AuthOptions) {
  return applyDecorators(
    SetMetadata(AUTH_METADATA, options),
    // Both at once: one requirement object naming the two schemes.
    ApiSecurity({ bearer: [], tenant: [] }),
    ApiHeader({
      name: 'X-Tenant',
      required: true,
      description: 'The church key (slug).',
      schema: { type: 'string', example: 'grace-church' },
    }),
    ApiHeader({
      name: 'Accept-Language',
      required: false,
      description: 'es (default), en or pt: error messages and *_label fields.',
      schema: { type: 'string', example: 'en' },
    }),
    ApiExtension('x-required-scopes', options.scopes),
    ...(options.credentials ? [ApiExtension('x-token-types', ['pat', 'service'])] : []),
    ApiResponse({ status: 400, description: 'missing_tenant, invalid_parameter or invalid_json', ...problem }),
    ApiResponse({ status: 401, description: 'unauthorized, token_expired or token_revoked', ...problem }),
    ApiResponse({
      status: 403,
      description:
        `tenant_forbidden, tenant_inactive, origin_not_allowed or scope_insufficient (needs ${options.scopes.join(', ') || 'any scope'})` +
        (options.credentials ? '; token_type_not_allowed for an OAuth access token or a kiosk key' : ''),
      ...problem,
    }),
    ApiResponse({
      status: 404,
      description: "resource_not_found (unknown, deleted or another church's id)",
      ...problem,
    }),
    ApiResponse({ status: 409, description: 'conflict or idempotency_in_progress', ...problem }),
    ApiResponse({
      status: 422,
      description: 'validation_failed (errors[] lists every field) or idempotency_key_reused',
      ...problem,
    }),
    ApiResponse({ status: 429, description: 'rate_limited; Retry-After says when to retry', ...problem }),
    ApiResponse({
      status: 503,
      description:
        'service_unavailable: the database is restarting or unreachable; nothing was written unless the same Idempotency-Key replays it. Retry after Retry-After seconds.',
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 5 } },
      },
      ...problem,
    }),
  );
}

export const ADDRESS_LIMIT_METADATA = 'church:address-limit';

/**
 * A route anyone may call: no token, no tenant. It is limited per client address
 * (PUBLIC_RATE_LIMIT a minute) unless `addressLimit: false` says why not (a processor posting
 * its signed events from a few addresses, a health probe).
 */
export function Public(options: { addressLimit?: false } = {}) {
  return applyDecorators(
    SetMetadata(AUTH_METADATA, 'public' satisfies RouteAccess),
    SetMetadata(ADDRESS_LIMIT_METADATA, options.addressLimit ?? true),
  );
}
