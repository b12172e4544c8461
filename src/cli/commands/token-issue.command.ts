import { Command, CommandRunner, Option } from 'nest-commander';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { TokensService } from '../../platform/auth/tokens.service';
import { UsersService } from '../../platform/users/users.service';
import { CliError, CliSupport, requireOption } from '../cli-support';

interface Options {
  tenant?: string;
  user?: string;
  type?: string;
  name?: string;
  scopes?: string;
  json?: boolean;
}

const TYPES = ['pat', 'service', 'kiosk'] as const;

@Command({ name: 'token:issue', description: 'Issue an API token; prints the value once' })
export class TokenIssueCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    const type = (options.type ?? 'pat') as (typeof TYPES)[number];
    if (!TYPES.includes(type)) throw new CliError(`--type must be one of ${TYPES.join(', ')}`);
    const scopes = (options.scopes ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const [slug, email, name] = [
      requireOption(options.tenant, 'tenant'),
      requireOption(options.user, 'user'),
      requireOption(options.name, 'name'),
    ];
    const issued = await this.cli.inTenant(slug, async () => {
      const creator = await this.users.requireByEmail(email);
      return this.tokens.issue({ type, name, scopes, creator });
    });
    const { entity, value } = issued;
    this.cli.out(
      {
        id: toPublicId(ID_PREFIX.token, entity.id),
        token: value,
        type: entity.type,
        scopes: entity.scopes,
        expires_at: entity.expiresAt?.toISOString() ?? null,
      },
      Boolean(options.json),
      value,
    );
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--user <email>', description: 'the staff user who issues (and, for a PAT, owns) the token' }) user(
    v: string,
  ) {
    return v;
  }
  @Option({ flags: '--type <type>', description: 'pat | service | kiosk (default pat)' }) type(v: string) {
    return v;
  }
  @Option({ flags: '--name <name>' }) name(v: string) {
    return v;
  }
  @Option({ flags: '--scopes <list>', description: 'comma-separated, e.g. read:members,write:members' }) scopes(
    v: string,
  ) {
    return v;
  }
  @Option({ flags: '--json', description: 'print {id, token, type, scopes, expires_at}' }) json() {
    return true;
  }
}
