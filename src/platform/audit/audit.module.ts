import { Global, Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditLog } from './audit-log.service';

@Global()
@Module({ controllers: [AuditLogController], providers: [AuditLog], exports: [AuditLog] })
export class AuditModule {}
