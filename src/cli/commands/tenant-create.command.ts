import { Command, CommandRunner, Option } from 'nest-commander';
import { Plan } from '../../platform/tenancy/tenant.entity';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { CliSupport, requireOption } from '../cli-support';

interface Options {
  slug?: string;
  name?: string;
  plan?: Plan;
  json?: boolean;
}

@Command({ name: 'tenant:create', description: 'Create a church' })
export class TenantCreateCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly tenants: TenantsService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    await this.cli.connect();
    const tenant = await this.tenants.create({
      slug: requireOption(options.slug, 'slug'),
      name: requireOption(options.name, 'name'),
      plan: options.plan,
    });
    this.cli.out(
      { slug: tenant.slug, name: tenant.name, plan: tenant.plan, status: tenant.status },
      Boolean(options.json),
      tenant.slug,
    );
  }

  @Option({ flags: '--slug <slug>', description: 'church key (lowercase letters, digits, dashes)' }) slug(v: string) {
    return v;
  }
  @Option({ flags: '--name <name>', description: 'display name' }) name(v: string) {
    return v;
  }
  @Option({ flags: '--plan <plan>', description: 'starter | growth | business | enterprise' }) plan(v: string) {
    return v;
  }
  @Option({ flags: '--json', description: 'print JSON' }) json() {
    return true;
  }
}
