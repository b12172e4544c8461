import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { parseListQuery } from '../../common/lists/list-query';
import { ApiList, toEnvelope } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import type { AuditEntryEntity } from '../../platform/audit/audit-entry.entity';
import { AUDIT_LIST } from './audit-log.list';
import { AuditLogService } from './audit-log.service';
import { AuditEntryResponse } from './dto/audit-entry.response';

@ApiTags('Audit log')
@Controller('v1/audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'The audit log',
    description: 'Every change made with a token, newest first by default, under the token name.',
  })
  @ApiList(AuditEntryResponse, AUDIT_LIST)
  async list(@Query() query: Record<string, unknown>) {
    return toEnvelope(await this.audit.list(parseListQuery(query, AUDIT_LIST)), toAuditResponse);
  }
}

/** An audit entry as GET /v1/audit-log answers it (the console's Audit log page shows the same). */
export function toAuditResponse(entry: AuditEntryEntity): AuditEntryResponse {
  return {
    id: toPublicId(ID_PREFIX.audit, entry.id),
    action: entry.action,
    resource_type: entry.resourceType,
    resource_id: entry.resourceId,
    status: entry.status,
    token_id: entry.tokenId ? toPublicId(ID_PREFIX.token, entry.tokenId) : null,
    token_name: entry.tokenName,
    user_id: entry.userId ? toPublicId(ID_PREFIX.user, entry.userId) : null,
    request_id: entry.requestId,
    ip: entry.ip,
    created_at: entry.createdAt.toISOString(),
  };
}
