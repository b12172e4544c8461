import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ERROR_CATALOG } from '../common/errors/catalog';
import { interpolate } from '../common/i18n/language';
import { Database } from '../database/database.service';
import type { TenantEntity } from '../platform/tenancy/tenant.entity';
import { TenantsService } from '../platform/tenancy/tenants.service';

/** What every CLI command shares: the database on demand, tenant transactions, output. */
@Injectable()
export class CliSupport {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantsService,
  ) {}

  async connect(): Promise<Database> {
    await this.db.connect();
    return this.db;
  }

  async inTenant<T>(slug: string, fn: (tenant: TenantEntity) => Promise<T>): Promise<T> {
    await this.connect();
    const tenant = await this.tenants.requireBySlug(slug);
    return this.db.runInTenant({ tenantId: tenant.id, actor: { kind: 'cli' }, lang: 'en' }, () => fn(tenant));
  }

  /** Results go to stdout (JSON with --json); everything else goes to stderr. */
  out(value: unknown, json: boolean, text?: string): void {
    process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text ?? JSON.stringify(value, null, 2)}\n`);
  }
}

export function requireOption(value: string | undefined, name: string): string {
  if (!value) throw new CliError(`--${name} is required`);
  return value;
}

/** A failure the CLI reports as one line on stderr with exit code 1. */
export class CliError extends Error {}

export function describeCliError(error: unknown): string {
  if (error instanceof AppError) {
    const text = ERROR_CATALOG.en[error.code];
    const fields = error.errors.map((e) => `${e.field}: ${e.issue}`).join('; ');
    return `${error.code}: ${interpolate(text.detail, error.params)}${fields ? ` (${fields})` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
