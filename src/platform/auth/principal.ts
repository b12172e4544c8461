import type { Role } from './scopes';

/** The authenticated caller of one request: a token, its church and (when there is one) its user. */
export interface Principal {
  tokenId: string;
  tokenName: string;
  tokenType: 'pat' | 'service' | 'kiosk' | 'oauth';
  scopes: readonly string[];
  userId: string | null;
  role: Role | null;
  tenantId: string;
  tenantSlug: string;
  tenantPlan: string;
}
