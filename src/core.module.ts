import { Module } from '@nestjs/common';
import { CryptoModule } from './common/crypto/crypto.module';
import { TracingModule } from './common/telemetry/tracing.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { FEATURE_MODULES } from './modules';
import { AuditModule } from './platform/audit/audit.module';
import { AuthModule } from './platform/auth/auth.module';
import { CorsModule } from './platform/cors/cors.module';
import { ListTotalsModule } from './platform/list-totals/list-totals.module';
import { ChangesPlatformModule } from './platform/changes/changes.module';
import { MailModule } from './platform/mail/mail.module';
import { OutboxModule } from './platform/outbox/outbox.module';
import { PushModule } from './platform/push/push.module';
import { RateLimitModule } from './platform/rate-limit/rate-limit.module';
import { RedisModule } from './platform/redis/redis.module';
import { TenancyModule } from './platform/tenancy/tenancy.module';
import { UsersModule } from './platform/users/users.module';

/**
 * The module graph shared by the API, the worker and the CLI: the platform's machinery, then every
 * feature module (src/modules/index.ts).
 */
@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    CryptoModule,
    TracingModule,
    RedisModule,
    ListTotalsModule,
    MailModule,
    ChangesPlatformModule,
    PushModule,
    OutboxModule,
    TenancyModule,
    AuthModule,
    UsersModule,
    CorsModule,
    RateLimitModule,
    AuditModule,
    ...FEATURE_MODULES,
  ],
  exports: [AppConfigModule, DatabaseModule, TenancyModule, AuthModule, UsersModule, ...FEATURE_MODULES],
})
export class CoreModule {}
