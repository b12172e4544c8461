import { CampusEntity } from '../modules/campuses/campus.entity';
import { DeviceEntity } from '../modules/devices/device.entity';
import { MemberEntity } from '../modules/members/member.entity';
import { AuditEntryEntity } from '../platform/audit/audit-entry.entity';
import { ApiTokenEntity } from '../platform/auth/api-token.entity';
import { TenantEntity } from '../platform/tenancy/tenant.entity';
import { UserEntity } from '../platform/users/user.entity';
import { WebhookAttemptEntity } from '../platform/webhooks/webhook-attempt.entity';
import { WebhookEndpointEntity } from '../platform/webhooks/webhook-endpoint.entity';
import { WebhookEventEntity } from '../platform/webhooks/webhook-event.entity';

/** Every entity, listed (not globbed) so that tests and bundles load them the same way. */
export const ENTITIES = [TenantEntity, UserEntity, ApiTokenEntity, CampusEntity, MemberEntity, AuditEntryEntity, DeviceEntity, WebhookEndpointEntity, WebhookEventEntity, WebhookAttemptEntity];
