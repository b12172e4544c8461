import type { Request } from 'express';
import type { AppConfig } from '../../config/app-config';

/**
 * The authorization server's issuer identifier (RFC 8414 §2, RFC 9207): PUBLIC_URL when set, else
 * the origin the request came to (scheme and host as Express sees them, which honours TRUST_PROXY).
 * No trailing slash, no path: the metadata lives at `<issuer>/.well-known/oauth-authorization-server`.
 */
export function issuerOf(req: Request, config: Pick<AppConfig, 'PUBLIC_URL'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
