import { Command, CommandRunner, Option } from 'nest-commander';
import { requirePublicId } from '../../common/ids/id';
import { TokensService } from '../../platform/auth/tokens.service';
import { CliSupport, requireOption } from '../cli-support';

@Command({ name: 'token:revoke', description: 'Revoke an API token at once' })
export class TokenRevokeCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly tokens: TokensService,
  ) {
    super();
  }

  async run(_args: string[], options: { tenant?: string; id?: string; json?: boolean }): Promise<void> {
    const id = requireOption(options.id, 'id');
    const uuid = requirePublicId('tok', id, 'token');
    const token = await this.cli.inTenant(requireOption(options.tenant, 'tenant'), () => this.tokens.revoke(uuid));
    this.cli.out({ id, revoked_at: token.revokedAt?.toISOString() }, Boolean(options.json), `revoked ${id}`);
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--id <tok_id>' }) id(v: string) {
    return v;
  }
  @Option({ flags: '--json' }) json() {
    return true;
  }
}
