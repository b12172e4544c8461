import { Command, CommandRunner, Option } from 'nest-commander';
import { CampusesService } from '../../modules/campuses/campuses.service';
import type { CreateMemberDto } from '../../modules/members/dto/create-member.dto';
import { MEMBER_STATUSES } from '../../modules/members/member.entity';
import { MembersService } from '../../modules/members/members.service';
import { CliSupport, requireOption } from '../cli-support';
import { CAMPUSES, FIRST_NAMES, LAST_NAMES, random } from './seed-demo.data';

const BATCH = 50;

@Command({ name: 'seed:demo', description: 'Fill a church with realistic demo data (campuses and members)' })
export class SeedDemoCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly campuses: CampusesService,
    private readonly memberService: MembersService,
  ) {
    super();
  }

  async run(_args: string[], options: { tenant?: string; members?: string; json?: boolean }): Promise<void> {
    const slug = requireOption(options.tenant, 'tenant');
    const total = Number(options.members ?? 200);
    const rand = random(42);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
    const keys = await this.cli.inTenant(slug, async () => {
      const existing = await this.campuses.resolveRefs(CAMPUSES.map((c) => c.key));
      for (const campus of CAMPUSES) if (!existing.has(campus.key)) await this.campuses.create(campus);
      return CAMPUSES.map((c) => c.key);
    });
    let created = 0;
    while (created < total) {
      const rows: { index: number; dto: CreateMemberDto }[] = [];
      for (let i = 0; i < Math.min(BATCH, total - created); i++) {
        const gender = rand() < 0.5 ? 'female' : 'male';
        const first = pick(FIRST_NAMES[gender]);
        const last = pick(LAST_NAMES);
        const year = 1945 + Math.floor(rand() * 70);
        const birthdate = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
        const email = `${first}.${last}.${created + i}@example.org`
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase();
        rows.push({
          index: i,
          dto: {
            first_name: first,
            last_name: last,
            email,
            gender,
            birthdate,
            status: pick(MEMBER_STATUSES),
            campus: pick(keys),
            active: rand() > 0.1,
            phone: `+52133${String(10000000 + Math.floor(rand() * 89999999))}`,
          },
        });
      }
      await this.cli.inTenant(slug, () => this.memberService.createMany(rows));
      created += rows.length;
      this.progress(created, total);
    }
    process.stderr.write('\n');
    this.cli.out({ tenant: slug, campuses: CAMPUSES.length, members: created }, Boolean(options.json), `seeded ${slug}: ${CAMPUSES.length} campuses, ${created} members`);
  }

  private progress(done: number, total: number): void {
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} members`);
  }

  @Option({ flags: '--tenant <slug>' }) tenant(v: string) {
    return v;
  }
  @Option({ flags: '--members <n>', description: 'how many members (default 200)' }) count(v: string) {
    return v;
  }
  @Option({ flags: '--json' }) json() {
    return true;
  }
}
