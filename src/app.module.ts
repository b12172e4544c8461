import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { CoreModule } from './core.module';
import { AccessGuard } from './platform/auth/access.guard';
import { HealthModule } from './platform/health/health.module';
import { OpenApiModule } from './platform/openapi/openapi.module';
import { TenantTransactionInterceptor } from './platform/tenancy/tenant-transaction.interceptor';

/** The HTTP API. */
@Module({
  imports: [CoreModule, OpenApiModule, HealthModule],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_INTERCEPTOR, useClass: TenantTransactionInterceptor },
  ],
})
export class AppModule {}
