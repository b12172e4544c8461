import { Command, CommandRunner, Option } from 'nest-commander';
import type { OAuthClientType } from '../../modules/oauth/oauth-client.entity';
import { OAuthClientsService } from '../../modules/oauth/oauth-clients.service';
import { CliError, CliSupport, requireOption } from '../cli-support';

interface Options {
  tenant?: string;
  name?: string;
  redirectUri?: string[];
  type?: string;
  scopes?: string;
  json?: boolean;
}

const TYPES = ['public', 'confidential'] as const;

@Command({
  name: 'oauth:client:create',
  description:
    'Register an OAuth client of a church; prints its client_id (and, for a confidential client, its secret on the next line, shown once)',
})
export class OAuthClientCreateCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly clients: OAuthClientsService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    const type = (options.type ?? 'public') as OAuthClientType;
    if (!TYPES.includes(type)) throw new CliError(`--type must be one of ${TYPES.join(', ')}`);
    if (!options.redirectUri?.length) throw new CliError('--redirect-uri is required (repeat it for several)');
    const scopes = options.scopes
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const [slug, name] = [requireOption(options.tenant, 'tenant'), requireOption(options.name, 'name')];
    const created = await this.cli.inTenant(slug, () =>
      this.clients.create({ name, redirectUris: options.redirectUri, type, scopes }, null),
    );
    const text = created.client_secret ? `${created.client_id}\n${created.client_secret}` : created.client_id;
    this.cli.out(created, Boolean(options.json), text);
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--name <name>', description: 'shown on the consent page and in the audit log' }) name(v: string) {
    return v;
  }
  @Option({
    flags: '--redirect-uri <uri>',
    description: 'https, or http on 127.0.0.1/[::1]/localhost; repeat for several',
  })
  redirectUri(v: string, previous: string[] = []) {
    return [...previous, v];
  }
  @Option({ flags: '--type <type>', description: 'public (default; PKCE, no secret) | confidential (also a secret)' })
  type(v: string) {
    return v;
  }
  @Option({ flags: '--scopes <list>', description: 'the ceiling, comma-separated (default: every scope but admin:*)' })
  scopes(v: string) {
    return v;
  }
  @Option({
    flags: '--json',
    description: 'print the client as JSON ({id, client_id, name, type, redirect_uris, scopes, …, client_secret})',
  })
  json() {
    return true;
  }
}
