import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { AccessGuard } from './platform/auth/access.guard';
import { PermissionGuard } from './platform/auth/permission.guard';
import { AuditInterceptor } from './platform/audit/audit.interceptor';
import { HealthModule } from './platform/health/health.module';
import { IdempotencyInterceptor } from './platform/idempotency/idempotency.interceptor';
import { IdempotencyModule } from './platform/idempotency/idempotency.module';
import { OpenApiModule } from './platform/openapi/openapi.module';
import { RateLimitGuard } from './platform/rate-limit/rate-limit.guard';
import { TenantTransactionInterceptor } from './platform/tenancy/tenant-transaction.interceptor';
import { JobsModule } from './platform/jobs/jobs.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { RequestInterceptors } from './platform/request-interceptors';

/**
 * The HTTP API. Guards run in order (tenant + token, rate limits, then CORS + scopes); the
 * interceptors nest in order (RequestInterceptors): the tenant transaction wraps idempotency, which
 * wraps the audit entry.
 */
@Module({
  imports: [CoreModule, IdempotencyModule, OpenApiModule, HealthModule, MetricsModule],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
    TenantTransactionInterceptor,
    IdempotencyInterceptor,
    AuditInterceptor,
    { provide: APP_INTERCEPTOR, useClass: RequestInterceptors },
  ],
})
export class AppModule {
  /** The configuration decides what the graph holds (BullMQ only with Redis). */
  static forRoot(config: AppConfig): DynamicModule {
    return { module: AppModule, imports: [JobsModule.forRoot(config)] };
  }
}
