import { SetMetadata } from '@nestjs/common';

export const AUDIT_RESOURCE = 'audit:resource';

/**
 * The name a controller's entries carry in the audit log (`resource_type`, and the `action`
 * prefix), when it is not the class name: kept stable when a controller class is renamed, since
 * clients filter the log by it.
 */
export const AuditResource = (name: string) => SetMetadata(AUDIT_RESOURCE, name);
