import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { CoreModule } from '../core.module';
import { JobsModule } from '../platform/jobs/jobs.module';
import { CliSupport } from './cli-support';
import { MigrationRunCommand } from './commands/migration-run.command';
import { OAuthClientCreateCommand } from './commands/oauth-client-create.command';
import { OpenApiExportCommand } from './commands/openapi-export.command';
import { SeedDemoCommand } from './commands/seed-demo.command';
import { GivingSeeder } from './commands/seed-demo.giving-seeder';
import { MinistrySeeder } from './commands/seed-demo.ministry-seeder';
import { TenantCreateCommand } from './commands/tenant-create.command';
import { TenantQuotaCommand } from './commands/tenant-quota.command';
import { TokenIssueCommand } from './commands/token-issue.command';
import { TokenRevokeCommand } from './commands/token-revoke.command';
import { UserCreateCommand } from './commands/user-create.command';
import { WebhooksBackfillCommand } from './commands/webhooks-backfill.command';
import { WebhooksResendCommand } from './commands/webhooks-resend.command';

@Module({
  imports: [CoreModule],
  providers: [
    CliSupport,
    TenantCreateCommand,
    TenantQuotaCommand,
    UserCreateCommand,
    TokenIssueCommand,
    TokenRevokeCommand,
    OAuthClientCreateCommand,
    MigrationRunCommand,
    OpenApiExportCommand,
    SeedDemoCommand,
    GivingSeeder,
    MinistrySeeder,
    WebhooksResendCommand,
    WebhooksBackfillCommand,
  ],
})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [JobsModule.forRoot(config)] };
  }
}
