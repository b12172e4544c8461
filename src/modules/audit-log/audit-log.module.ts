import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditLogService } from './audit-log.service';

/** The audit log API (`/v1/audit-log`); entries are written by platform/audit. */
@Module({ controllers: [AuditLogController], providers: [AuditLogService], exports: [AuditLogService] })
export class AuditLogModule {}
