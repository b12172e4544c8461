import { Command, CommandRunner, Option } from 'nest-commander';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { Role } from '../../platform/auth/scopes';
import { UsersService } from '../../platform/users/users.service';
import { CliSupport, requireOption } from '../cli-support';

interface Options {
  tenant?: string;
  email?: string;
  role?: Role;
  name?: string;
  passwordStdin?: boolean;
  json?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

@Command({ name: 'user:create', description: 'Create a staff user of a church' })
export class UserCreateCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly users: UsersService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    const password = options.passwordStdin ? await readStdin() : undefined;
    const user = await this.cli.inTenant(requireOption(options.tenant, 'tenant'), () =>
      this.users.create({
        email: requireOption(options.email, 'email'),
        role: requireOption(options.role, 'role') as Role,
        name: options.name,
        password,
      }),
    );
    const id = toPublicId(ID_PREFIX.user, user.id);
    this.cli.out({ id, email: user.email, role: user.role }, Boolean(options.json), id);
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--email <email>' }) email(v: string) {
    return v;
  }
  @Option({ flags: '--role <role>', description: 'org_admin | staff | finance | group_leader | volunteer' }) role(
    v: string,
  ) {
    return v;
  }
  @Option({ flags: '--name <name>' }) name(v: string) {
    return v;
  }
  @Option({ flags: '--password-stdin', description: 'read the password from standard input' }) passwordStdin() {
    return true;
  }
  @Option({ flags: '--json' }) json() {
    return true;
  }
}
