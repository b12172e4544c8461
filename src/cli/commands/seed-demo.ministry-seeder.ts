import { Injectable } from '@nestjs/common';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../common/ids/id';
import { AttendanceService } from '../../modules/attendance/attendance.service';
import { EventsService } from '../../modules/events/events.service';
import { GroupMembersService } from '../../modules/groups/group-members.service';
import { GroupsService } from '../../modules/groups/groups.service';
import { CliError, CliSupport } from '../cli-support';
import { random } from './seed-demo.data';
import {
  eventKey,
  MinistryPerson,
  MinistryPlanner,
  PlannedEvent,
  PlannedGroup,
  PlannedService,
} from './seed-demo.ministry';

/** Attendance rows per bulk call (the limit of POST /v1/attendance/bulk), and transactions at once. */
const CHUNK = 500;
const PARALLEL = 4;

export interface MinistrySummary {
  services: number;
  attendance: number;
  groups: number;
  group_members: number;
  upcoming_events: number;
  registrations: number;
}

/**
 * Writes the demo church's ministry (MinistryPlanner) through the modules' services, so that their
 * rules, events and row-level security apply as they do for the API: the Sunday services (calendar
 * events, made once: a second run finds them by name and start), their attendance through the bulk
 * path (AttendanceService.createMany, 500 rows a call), the cell groups (made once by name; each
 * run puts its members in) and the upcoming events with their registrations.
 */
@Injectable()
export class MinistrySeeder {
  constructor(
    private readonly cli: CliSupport,
    private readonly calendar: EventsService,
    private readonly attendance: AttendanceService,
    private readonly groups: GroupsService,
    private readonly groupMembers: GroupMembersService,
  ) {}

  async seed(
    slug: string,
    people: MinistryPerson[],
    progress: (label: string, done: number, total: number) => void,
  ): Promise<MinistrySummary> {
    const plan = new MinistryPlanner(random(11)).plan(people);
    const existing = await this.cli.inTenant(slug, () => this.existingEvents());

    const serviceIds = await this.cli.inTenant(slug, () => this.ensureEvents(plan.services, existing));
    progress('services', plan.services.length, plan.services.length);
    process.stderr.write('\n');

    const rows = plan.services.flatMap((service, i) =>
      service.attendance.map((a) => ({ ...a, eventId: serviceIds[i] })),
    );
    const chunks: number[] = [];
    for (let start = 0; start < rows.length; start += CHUNK) chunks.push(start);
    let done = 0;
    const work = async () => {
      for (let start = chunks.shift(); start !== undefined; start = chunks.shift()) {
        const chunk = rows.slice(start, start + CHUNK);
        const { rejected } = await this.cli.inTenant(slug, () =>
          this.attendance.createMany(chunk.map((row, index) => ({ index, row }))),
        );
        if (rejected.length) throw new CliError(`a demo attendance record was refused: ${rejected[0].error.code}`);
        progress('attendance records', (done += chunk.length), rows.length);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, work));
    if (rows.length) process.stderr.write('\n');

    const groups = await this.cli.inTenant(slug, () => this.existingGroups());
    let groupMembers = 0;
    for (const group of plan.groups)
      groupMembers += await this.cli.inTenant(slug, () => this.group(group, groups.get(group.dto.name)));

    const eventIds = await this.cli.inTenant(slug, () => this.ensureEvents(plan.upcoming, existing));
    let registrations = 0;
    for (const [i, event] of plan.upcoming.entries())
      registrations += await this.cli.inTenant(slug, () => this.register(eventIds[i], event));

    return {
      services: plan.services.length,
      attendance: rows.length,
      groups: plan.groups.length,
      group_members: groupMembers,
      upcoming_events: plan.upcoming.length,
      registrations,
    };
  }

  /** The church's events by name and start (a second run reuses the services and upcoming events). */
  private async existingEvents(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    let cursor: string | null = null;
    do {
      const page = await this.calendar.list({ limit: '250', ...(cursor ? { cursor } : {}) });
      for (const e of page.data) found.set(eventKey(e.name, e.starts_at), e.id);
      cursor = page.next_cursor;
    } while (cursor);
    return found;
  }

  /** Each planned event's uuid: the one there, else made now. */
  private async ensureEvents(
    planned: (PlannedService | PlannedEvent)[],
    existing: Map<string, string>,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const event of planned) {
      const id = existing.get(event.key) ?? (await this.calendar.create(event.dto)).id;
      ids.push(parsePublicId(ID_PREFIX.event, id)!);
    }
    return ids;
  }

  /** The church's groups by name (a second run reuses the demo groups). */
  private async existingGroups(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    let cursor: string | null = null;
    do {
      const page = await this.groups.list({ limit: '250', ...(cursor ? { cursor } : {}) });
      for (const g of page.data) found.set(g.name, g.id);
      cursor = page.next_cursor;
    } while (cursor);
    return found;
  }

  /** The group (made once, by name), its leader as `leader`, its members; how many this run put in. */
  private async group(group: PlannedGroup, found: string | undefined): Promise<number> {
    const id = parsePublicId(ID_PREFIX.group, found ?? (await this.groups.create(group.dto)).id)!;
    // A second run's leader joins as a member: the group keeps the leader it has.
    await this.groupMembers.put(id, group.leader, { group_role: found ? 'member' : 'leader' });
    for (const member of group.members) await this.groupMembers.put(id, member, {});
    return 1 + group.members.length;
  }

  /** Members register while seats are left, then the guest. */
  private async register(eventId: string, event: PlannedEvent): Promise<number> {
    const current = await this.calendar.get(eventId);
    let seats = current.capacity === null ? Infinity : current.capacity - current.registration_count;
    let count = 0;
    for (const member of [...event.registrants, null]) {
      if (seats <= 0) break;
      await this.calendar.register(
        eventId,
        member ? { member_id: toPublicId(ID_PREFIX.member, member) } : { guest: { ...event.guest } },
      );
      seats--;
      count++;
    }
    return count;
  }
}
