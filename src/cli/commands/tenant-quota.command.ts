import { Command, CommandRunner, Option } from 'nest-commander';
import { effectiveQuota } from '../../platform/rate-limit/quotas';
import { Plan, PLANS } from '../../platform/tenancy/tenant.entity';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { CliError, CliSupport, requireOption } from '../cli-support';

interface Options {
  slug?: string;
  plan?: string;
  rpm?: string;
  perDay?: string;
  burst?: string;
  until?: string;
  clear?: boolean;
  json?: boolean;
}

function positive(value: string | undefined, name: string): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new CliError(`--${name} must be a positive integer`);
  return Number(value);
}

@Command({
  name: 'tenant:quota',
  description: "Change a church's plan, or raise its quotas until a date (e.g. for a migration)",
})
export class TenantQuotaCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly tenants: TenantsService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    const slug = requireOption(options.slug, 'slug');
    if (options.plan && !PLANS.includes(options.plan as Plan))
      throw new CliError(`--plan must be one of ${PLANS.join(', ')}`);
    const rpm = positive(options.rpm, 'rpm');
    const perDay = positive(options.perDay, 'per-day');
    const burst = positive(options.burst, 'burst');
    const raising = rpm !== null || perDay !== null || burst !== null;
    let until: Date | null = null;
    if (raising) {
      until = new Date(requireOption(options.until, 'until'));
      if (Number.isNaN(until.getTime()) || until.getTime() <= Date.now())
        throw new CliError('--until must be a future date (YYYY-MM-DD or ISO 8601)');
    }
    if (!options.plan && !raising && !options.clear)
      throw new CliError('nothing to change: give --plan, --rpm/--per-day/--burst with --until, or --clear');
    await this.cli.connect();
    const tenant = await this.tenants.update(slug, {
      ...(options.plan ? { plan: options.plan as Plan } : {}),
      ...(raising ? { quotaRpm: rpm, quotaPerDay: perDay, quotaBurst: burst, quotaUntil: until } : {}),
      ...(options.clear ? { quotaRpm: null, quotaPerDay: null, quotaBurst: null, quotaUntil: null } : {}),
    });
    const override = {
      rpm: tenant.quotaRpm,
      perDay: tenant.quotaPerDay,
      burst: tenant.quotaBurst,
      until: tenant.quotaUntil,
    };
    const quota = effectiveQuota(tenant.plan, override);
    const result = {
      slug,
      plan: tenant.plan,
      requests_per_minute: quota.rpm,
      requests_per_day: quota.perDay,
      burst: quota.burst,
      raised_until: tenant.quotaUntil?.toISOString() ?? null,
    };
    this.cli.out(
      result,
      Boolean(options.json),
      `${slug}: ${tenant.plan}, ${quota.rpm}/min, ${quota.perDay}/day, burst ${quota.burst}${result.raised_until ? ` until ${result.raised_until}` : ''}`,
    );
  }

  @Option({ flags: '--slug <slug>' }) slug(v: string) {
    return v;
  }
  @Option({ flags: '--plan <plan>', description: 'starter | growth | business | enterprise' }) plan(v: string) {
    return v;
  }
  @Option({ flags: '--rpm <n>', description: 'requests per minute while raised' }) rpm(v: string) {
    return v;
  }
  @Option({ flags: '--per-day <n>', description: 'requests per day while raised' }) perDay(v: string) {
    return v;
  }
  @Option({ flags: '--burst <n>', description: 'burst while raised' }) burst(v: string) {
    return v;
  }
  @Option({ flags: '--until <date>', description: 'end of the raise (required with --rpm/--per-day/--burst)' }) until(
    v: string,
  ) {
    return v;
  }
  @Option({ flags: '--clear', description: 'end a raise now' }) clear() {
    return true;
  }
  @Option({ flags: '--json' }) json() {
    return true;
  }
}
