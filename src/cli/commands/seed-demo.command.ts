import { Command, CommandRunner, Option } from 'nest-commander';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../common/ids/id';
import { CampusesService } from '../../modules/campuses/campuses.service';
import { CustomFieldsService } from '../../modules/custom-fields/custom-fields.service';
import { HouseholdsService } from '../../modules/households/households.service';
import { MemberTagsService } from '../../modules/members/member-tags.service';
import { MembersService } from '../../modules/members/members.service';
import { PrayerRequestsService } from '../../modules/prayer-requests/prayer-requests.service';
import { ProspectsService } from '../../modules/prospects/prospects.service';
import { TagsService } from '../../modules/tags/tags.service';
import type { Principal } from '../../platform/auth/principal';
import type { TenantEntity } from '../../platform/tenancy/tenant.entity';
import { CliError, CliSupport, requireOption } from '../cli-support';
import {
  CAMPUSES,
  CUSTOM_FIELDS,
  FIRST_NAMES,
  LAST_NAMES,
  PRAYER_REQUESTS,
  PROSPECT_NOTES,
  PROSPECT_STAGES_PLAN,
  random,
  TAGS,
} from './seed-demo.data';
import { GivingSeeder } from './seed-demo.giving-seeder';
import type { MinistryPerson } from './seed-demo.ministry';
import { MinistrySeeder } from './seed-demo.ministry-seeder';
import { ascii, DemoFamily, DemoPeople } from './seed-demo.people';

/** About this many members per transaction (whole families). */
const BATCH = 50;
/** Households per member: 70 for the default 200. */
const HOUSEHOLDS_PER_MEMBER = 0.35;
const PROSPECT_SOURCES = ['visit', 'visit', 'event', 'online', 'referral', 'other'] as const;

/**
 * Fills a church through the modules' services (their rules, events and row-level security
 * apply): campuses, tags, custom fields, members (with custom field values) in households,
 * prospects (some converted into members through the real convert), prayer requests, and two
 * years of giving (funds, donations, recurring gifts, pledges, a committed batch: GivingSeeder),
 * and a year of ministry (weekly Sunday services per campus with attendance, 12 cell groups,
 * upcoming events with registrations: MinistrySeeder).
 * Deterministic: a second run adds as many people (and gifts) again and reuses the campuses,
 * tags, custom fields, funds, Sunday services, groups and upcoming events (adding this run's people
 * to their attendance, groups and registrations).
 */
@Command({
  name: 'seed:demo',
  description:
    'Fill a church with realistic demo data (campuses, members, households, tags, custom fields, prospects, prayer requests, giving, services and attendance, cell groups, upcoming events)',
})
export class SeedDemoCommand extends CommandRunner {
  constructor(
    private readonly cli: CliSupport,
    private readonly campuses: CampusesService,
    private readonly memberService: MembersService,
    private readonly households: HouseholdsService,
    private readonly tags: TagsService,
    private readonly customFields: CustomFieldsService,
    private readonly memberTags: MemberTagsService,
    private readonly prospects: ProspectsService,
    private readonly prayerRequests: PrayerRequestsService,
    private readonly giving: GivingSeeder,
    private readonly ministry: MinistrySeeder,
  ) {
    super();
  }

  async run(_args: string[], options: { tenant?: string; members?: string; json?: boolean }): Promise<void> {
    const slug = requireOption(options.tenant, 'tenant');
    const total = Number(options.members ?? 200);
    if (!Number.isInteger(total) || total < 0) throw new CliError('--members must be a whole number');
    const rand = random(42);
    const keys = CAMPUSES.map((c) => c.key);
    const people = new DemoPeople(rand, keys);
    const converts = Math.min(total, PROSPECT_STAGES_PLAN.find(([stage]) => stage === 'converted')![1]);
    const families = people.families(total - converts, Math.round(total * HOUSEHOLDS_PER_MEMBER));

    await this.cli.inTenant(slug, () => this.ensureDefinitions());
    const seeded = { members: 0, households: 0, adults: [] as string[], people: [] as MinistryPerson[] };
    const direct = total - converts;
    for (const chunk of batches(families)) {
      await this.cli.inTenant(slug, () => this.seedFamilies(chunk, seeded));
      progress('members', seeded.members, direct);
    }
    if (direct > 0) process.stderr.write('\n');

    const prospects = await this.cli.inTenant(slug, () => this.seedProspects(people, converts));
    progress('prospects', prospects, prospects);
    process.stderr.write('\n');
    const prayerRequests = await this.cli.inTenant(slug, (tenant) =>
      this.seedPrayerRequests(people, seeded.adults, cliPrincipal(tenant)),
    );
    progress('prayer requests', prayerRequests, prayerRequests);
    process.stderr.write('\n');
    const giving = await this.giving.seed(slug, seeded.adults, progress);
    const ministry = await this.ministry.seed(slug, seeded.people, progress);

    const summary = {
      tenant: slug,
      campuses: CAMPUSES.length,
      members: seeded.members + converts,
      households: seeded.households,
      tags: TAGS.length,
      custom_fields: CUSTOM_FIELDS.length,
      prospects,
      prayer_requests: prayerRequests,
      ...giving,
      ...ministry,
    };
    this.cli.out(
      summary,
      Boolean(options.json),
      `seeded ${slug}: ${summary.campuses} campuses, ${summary.members} members, ${summary.households} households, ${summary.tags} tags, ${summary.custom_fields} custom fields, ${prospects} prospects, ${prayerRequests} prayer requests, ` +
        `${giving.funds} funds, ${giving.donations} donations, ${giving.recurring_gifts} recurring gifts, ${giving.pledges} pledges, ${giving.batches} batch, ` +
        `${ministry.services} services, ${ministry.attendance} attendance records, ${ministry.groups} groups, ${ministry.group_members} group members, ${ministry.upcoming_events} upcoming events, ${ministry.registrations} registrations`,
    );
  }

  /** Campuses, tags and custom fields, each made once (a second run reuses them). */
  private async ensureDefinitions(): Promise<void> {
    const existing = await this.campuses.resolveRefs(CAMPUSES.map((c) => c.key));
    for (const campus of CAMPUSES) if (!existing.has(campus.key)) await this.campuses.create(campus);
    for (const tag of TAGS)
      if (!(await this.tags.resolve(tag.name))) await this.tags.create({ name: tag.name, color: tag.color });
    const keys = new Set((await this.customFields.definitions(false)).map((d) => d.key));
    for (const field of CUSTOM_FIELDS)
      if (!keys.has(field.key)) await this.customFields.create({ ...field, required: false });
  }

  /** The members of these families in one insert, then each family's household (head as its contact) and everyone's tags. */
  private async seedFamilies(
    families: DemoFamily[],
    seeded: { members: number; households: number; adults: string[]; people: MinistryPerson[] },
  ): Promise<void> {
    const rows = families.flatMap((f) => f.people).map((p, index) => ({ index, dto: p.dto }));
    const { created, rejected } = await this.memberService.createMany(rows);
    if (rejected.length) throw new CliError(`a demo member was refused: ${JSON.stringify(rejected[0].errors)}`);
    const uuids = new Map(created.map((c) => [c.index, c.id]));
    let index = 0;
    for (const family of families) {
      const members = family.people.map((person) => ({ person, uuid: uuids.get(index++)! }));
      if (family.household) {
        const ids = members.map((m) => toPublicId(ID_PREFIX.member, m.uuid));
        const household = await this.households.create({ ...family.household, primary_contact_id: ids[0] });
        const householdId = parsePublicId(ID_PREFIX.household, household.id)!;
        for (const [i, { person }] of members.entries())
          await this.households.addMember(householdId, { member_id: ids[i], household_role: person.role! });
        seeded.households++;
      }
      for (const { person, uuid } of members) {
        for (const tag of person.tags) await this.memberTags.add(uuid, tag);
        if (person.age >= 18) seeded.adults.push(toPublicId(ID_PREFIX.member, uuid));
        seeded.people.push({ id: uuid, campus: person.dto.campus!, age: person.age });
      }
    }
    seeded.members += created.length;
  }

  /** Prospects at every stage; the `converted` ones are created, then converted (a member is made, member_id set). */
  private async seedProspects(people: DemoPeople, converts: number): Promise<number> {
    const today = Date.now();
    let count = 0;
    for (const [stage, planned] of PROSPECT_STAGES_PLAN) {
      const n = stage === 'converted' ? converts : planned;
      for (let i = 0; i < n; i++) {
        const gender = people.pick(['female', 'male'] as const);
        const first = people.pick(FIRST_NAMES[gender]);
        const last = people.pick(LAST_NAMES);
        const open = stage !== 'lost' && stage !== 'converted';
        const prospect = await this.prospects.create({
          first_name: first,
          last_name: last,
          email: ascii(`${first}.${last}.prospect${count}@example.net`),
          campus: people.pick(CAMPUSES).key,
          source: people.pick(PROSPECT_SOURCES),
          stage: stage === 'converted' ? 'connecting' : stage,
          follow_up_on: open
            ? new Date(today + people.pick([-3, 2, 5, 7, 10, 14]) * 86_400_000).toISOString().slice(0, 10)
            : null,
          notes: people.pick(PROSPECT_NOTES),
        });
        if (stage === 'converted')
          await this.prospects.convert(parsePublicId(ID_PREFIX.prospect, prospect.id)!, { gender, status: 'regular' });
        count++;
      }
    }
    return count;
  }

  /** Prayer requests from members (or visitors by name), of every visibility; some answered. */
  private async seedPrayerRequests(people: DemoPeople, adults: string[], principal: Principal): Promise<number> {
    for (const entry of PRAYER_REQUESTS) {
      const asker =
        entry.visitor || !adults.length ? { name: entry.visitor ?? 'Visitor' } : { member_id: people.pick(adults) };
      const request = await this.prayerRequests.create(
        {
          request: entry.request,
          visibility: entry.visibility,
          urgent: entry.urgent ?? false,
          campus: people.pick(CAMPUSES).key,
          ...asker,
        },
        principal,
      );
      if (entry.answer)
        await this.prayerRequests.answer(
          parsePublicId(ID_PREFIX.prayerRequest, request.id)!,
          { answer: entry.answer },
          principal,
        );
    }
    return PRAYER_REQUESTS.length;
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

/** Whole families, about BATCH members at a time. */
function* batches(families: DemoFamily[]): Generator<DemoFamily[]> {
  let chunk: DemoFamily[] = [];
  let size = 0;
  for (const family of families) {
    chunk.push(family);
    size += family.people.length;
    if (size >= BATCH) {
      yield chunk;
      chunk = [];
      size = 0;
    }
  }
  if (chunk.length) yield chunk;
}

function progress(label: string, done: number, total: number): void {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`);
}

/**
 * Who the prayer requests are written as: the CLI, with an administrator's sight (it answers the
 * private ones it made) and no staff user behind it, so its private requests are seen by the
 * church's org_admins only.
 */
function cliPrincipal(tenant: TenantEntity): Principal {
  return {
    tokenId: 'cli',
    tokenName: 'seed:demo',
    tokenType: 'service',
    scopes: ['admin:*'],
    userId: null,
    actingUserId: null,
    role: 'org_admin',
    tenantId: tenant.id,
    tenantSlug: tenant.slug,
    tenantPlan: tenant.plan,
    quotaOverride: null,
  };
}
