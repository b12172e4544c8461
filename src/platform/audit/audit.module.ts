import { Global, Module } from '@nestjs/common';
import { AuditRecorder } from './audit-recorder';

/** Writes the audit entry of every change made with a token (the interceptor's store). */
@Global()
@Module({ providers: [AuditRecorder], exports: [AuditRecorder] })
export class AuditModule {}
