import type { ApiRequest } from '../../common/http/request';
import type { QuotaOverride } from '../rate-limit/quotas';
import type { Plan } from '../tenancy/tenant.entity';
import type { Role } from './scopes';

/** The authenticated caller of one request: a token, its church and (when there is one) its user. */
export interface Principal {
  tokenId: string;
  tokenName: string;
  tokenType: 'pat' | 'service' | 'kiosk' | 'oauth';
  scopes: readonly string[];
  /** The owning user (PATs, OAuth); null for service and kiosk tokens. */
  userId: string | null;
  /** The user whose role bounds the token: the owner, or the staff member who created it. */
  actingUserId: string | null;
  role: Role | null;
  tenantId: string;
  tenantSlug: string;
  tenantPlan: Plan;
  /** A temporary quota raise set by `tenant:quota`, if any. */
  quotaOverride: QuotaOverride | null;
}

/** A request as the platform and the modules see it: its principal, once authenticated, is the full Principal. */
export type AuthRequest = ApiRequest<Principal>;
