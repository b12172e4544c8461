import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { MailerService } from '../../platform/mail/mailer.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { AttendanceService } from '../attendance/attendance.service';
import type { CampusEntity } from '../campuses/campus.entity';
import { CampusesService } from '../campuses/campuses.service';
import { MemberLookup, type MemberName } from '../members/member-lookup';
import { cancellationMail } from './cancellation.mail';
import type { CreateEventDto } from './dto/create-event.dto';
import type { CalendarEventResponse } from './dto/event.response';
import type { CreateRegistrationDto } from './dto/create-registration.dto';
import type { RegistrationResponse } from './dto/registration.response';
import type { UpdateEventDto } from './dto/update-event.dto';
import { EventEntity } from './event.entity';
import { EVENT_LIST, REGISTRATION_LIST } from './events.list';
import { toEventResponse, toRegistrationResponse } from './events.mapper';
import { readTime, readTimes, readTimezone } from './event-times';
import { EventsRepository } from './events.repository';
import { RegistrationEntity } from './registration.entity';

const REQUIRED_ON_PATCH = ['name', 'starts_at', 'ends_at', 'registration_open'] as const;

@Injectable()
export class EventsService {
  constructor(
    private readonly repository: EventsRepository,
    private readonly campuses: CampusesService,
    private readonly outbox: OutboxService,
    private readonly mailer: MailerService,
    private readonly attendance: AttendanceService,
    private readonly members: MemberLookup,
  ) {}

  async create(dto: CreateEventDto): Promise<CalendarEventResponse> {
    const issues: FieldIssue[] = [];
    const campus = await this.resolveCampus(dto.campus, issues);
    const timezone = readTimezone(dto.timezone, campus, issues);
    const times = timezone ? readTimes(dto.starts_at, dto.ends_at, timezone, issues) : null;
    if (issues.length || !times || !timezone) throw AppError.validation(issues);
    const now = new Date();
    const event = Object.assign(new EventEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      name: dto.name.trim(),
      description: dto.description ?? null,
      location: dto.location ?? null,
      campusId: campus?.id ?? null,
      timezone,
      startsAt: times.startsAt,
      endsAt: times.endsAt,
      capacity: dto.capacity ?? null,
      registrationOpen: dto.registration_open ?? true,
      status: 'scheduled' as const,
      registrationCount: 0,
      canceledAt: null,
      cancelReason: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await this.repository.insert(event);
    const response = toEventResponse(event, campusMap(campus), new Map());
    await this.outbox.record('event.created', response);
    return response;
  }

  async get(id: string): Promise<CalendarEventResponse> {
    const event = await this.require(id);
    return (await this.respond([event]))[0];
  }

  /**
   * The live events among `ids` as GET returns them, by id (the changes feed's objects): three
   * queries (the events, their campuses, their attendance counts).
   */
  async getMany(ids: string[]): Promise<Map<string, CalendarEventResponse>> {
    const events = await this.repository.findLiveMany(ids);
    const responses = await this.respond(events);
    return new Map(events.map((e, i) => [e.id, responses[i]]));
  }

  /** A page of events; their campuses in one query. */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<CalendarEventResponse>> {
    const page = await this.repository.list(parseListQuery(rawQuery, EVENT_LIST));
    const responses = await this.respond(page.rows);
    return { data: responses, next_cursor: page.nextCursor, total: page.total };
  }

  /**
   * Any subset of the fields. A new `timezone` keeps the instants (starts_at and ends_at stay
   * where they were in UTC); a local starts_at/ends_at sent with it is read in the new zone.
   */
  async update(id: string, dto: UpdateEventDto): Promise<CalendarEventResponse> {
    const issues: FieldIssue[] = [...clearedRequiredFields(dto, REQUIRED_ON_PATCH)];
    if (issues.length) throw AppError.validation(issues);
    const event = await this.require(id, 'for_no_key_update');
    const campus = dto.campus !== undefined ? await this.resolveCampus(dto.campus, issues) : null;
    const changes: Partial<EventEntity> = {};
    if (dto.campus !== undefined) changes.campusId = campus?.id ?? null;
    if (dto.timezone !== undefined) {
      const zoneCampus =
        campus ??
        (dto.campus === undefined && event.campusId
          ? (await this.campuses.byIdOf([event])).get(event.campusId)
          : undefined);
      const timezone = readTimezone(dto.timezone, zoneCampus ?? null, issues);
      if (timezone) changes.timezone = timezone;
    }
    const timezone = changes.timezone ?? event.timezone;
    const startsAt =
      dto.starts_at !== undefined ? readTime('starts_at', dto.starts_at, timezone, issues) : event.startsAt;
    const endsAt = dto.ends_at !== undefined ? readTime('ends_at', dto.ends_at, timezone, issues) : event.endsAt;
    if (startsAt && endsAt && endsAt <= startsAt) issues.push({ field: 'ends_at', issue: 'not_after_start' });
    if (issues.length) throw AppError.validation(issues);
    if (dto.starts_at !== undefined) changes.startsAt = startsAt!;
    if (dto.ends_at !== undefined) changes.endsAt = endsAt!;
    if (dto.name !== undefined) changes.name = dto.name.trim();
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.location !== undefined) changes.location = dto.location;
    if (dto.capacity !== undefined) changes.capacity = dto.capacity;
    if (dto.registration_open !== undefined) changes.registrationOpen = dto.registration_open;
    changes.updatedAt = new Date();
    await this.save(id, changes);
    return (await this.respond([Object.assign(event, changes)]))[0];
  }

  /** Soft delete: the event disappears from the API; its registrations stay in the database. */
  async remove(id: string): Promise<void> {
    await this.require(id, 'for_no_key_update');
    const now = new Date();
    await this.save(id, { deletedAt: now, updatedAt: now });
  }

  /**
   * Registers a member or a guest. The event row is locked (FOR NO KEY UPDATE) before the seat is
   * counted, so concurrent registrations are decided one after the other on what the previous one
   * committed: never more than `capacity`. The unique index (event, member) backs the duplicate 409.
   */
  async register(eventId: string, dto: CreateRegistrationDto): Promise<RegistrationResponse> {
    if ((dto.member_id === undefined) === (dto.guest === undefined)) {
      throw AppError.validation([
        {
          field: dto.member_id === undefined ? 'member_id' : 'guest',
          issue: dto.member_id === undefined ? 'required' : 'invalid',
        },
      ]);
    }
    const event = await this.require(eventId, 'for_no_key_update');
    if (event.status === 'canceled') throw new AppError('event_canceled');
    if (!event.registrationOpen)
      throw new AppError('conflict', { reason: 'registration is closed for this event (registration_open: false)' });
    let member: MemberName | null = null;
    if (dto.member_id !== undefined) {
      const memberId = parsePublicId(ID_PREFIX.member, dto.member_id);
      // A member merged into another registers the survivor (CONTRACT §17).
      member = memberId ? await this.members.findLiveOrSurvivor(memberId, 'for_key_share') : null;
      if (!member) throw AppError.validation([{ field: 'member_id', issue: 'not_found' }]);
      if (await this.repository.hasMemberRegistration(event.id, member.id)) {
        throw new AppError('conflict', { reason: `member ${dto.member_id} is already registered for this event` });
      }
    }
    if (event.capacity !== null && event.registrationCount >= event.capacity)
      throw new AppError('event_full', { capacity: event.capacity });
    const now = new Date();
    const registration = Object.assign(new RegistrationEntity(), {
      tenantId: event.tenantId,
      id: newUuid(),
      eventId: event.id,
      memberId: member?.id ?? null,
      guestFirstName: dto.guest ? dto.guest.first_name.trim() : null,
      guestLastName: dto.guest ? dto.guest.last_name.trim() : null,
      guestEmail: dto.guest?.email ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await this.repository.insertRegistration(registration);
    await this.save(event.id, { registrationCount: event.registrationCount + 1, updatedAt: now });
    const response = toRegistrationResponse(registration, new Map(member ? [[member.id, member]] : []));
    await this.outbox.record('event.registration', response);
    return response;
  }

  async listRegistrations(
    eventId: string,
    rawQuery: Record<string, unknown>,
  ): Promise<ListEnvelope<RegistrationResponse>> {
    const query = parseListQuery(rawQuery, REGISTRATION_LIST);
    const event = await this.require(eventId);
    const page = await this.repository.listRegistrations(event.id, query);
    const members = await this.members.names(page.rows.flatMap((r) => (r.memberId ? [r.memberId] : [])));
    return toEnvelope(page, (r) => toRegistrationResponse(r, members));
  }

  /**
   * The registrations among `ids` as their event's registration list (GET /v1/events/{id}/registrations)
   * shows them, by id (the changes feed's objects): those of live events only, two queries (the
   * registrations, their members' names).
   */
  async getRegistrations(ids: string[]): Promise<Map<string, RegistrationResponse>> {
    const rows = await this.repository.findLiveRegistrations(ids);
    const members = await this.members.names(rows.flatMap((r) => (r.memberId ? [r.memberId] : [])));
    return new Map(rows.map((r) => [r.id, toRegistrationResponse(r, members)]));
  }

  /** Frees the seat (the event is locked as register locks it, so the count stays exact). */
  async unregister(eventId: string, registrationId: string): Promise<void> {
    const event = await this.require(eventId, 'for_no_key_update');
    if (!(await this.repository.deleteRegistration(event.id, registrationId))) throw AppError.notFound('registration');
    await this.save(event.id, { registrationCount: Math.max(0, event.registrationCount - 1), updatedAt: new Date() });
  }

  /**
   * `status: canceled`, `event.canceled`, and one mail to each registrant with an address (one per
   * address), in the language of the request, written to the mail outbox in this transaction (sent
   * by the mail job once it commits). Canceling a canceled event is 409 `event_canceled`.
   */
  async cancel(id: string, reason: string | null | undefined): Promise<CalendarEventResponse> {
    const event = await this.require(id, 'for_no_key_update');
    if (event.status === 'canceled') throw new AppError('event_canceled');
    const now = new Date();
    const changes: Partial<EventEntity> = {
      status: 'canceled',
      canceledAt: now,
      cancelReason: reason?.trim() || null,
      updatedAt: now,
    };
    await this.save(id, changes);
    const canceled = Object.assign(event, changes);
    const [response] = await this.respond([canceled]);
    await this.outbox.record('event.canceled', response);
    await this.mailRegistrants(canceled);
    return response;
  }

  private async mailRegistrants(event: EventEntity): Promise<void> {
    const registrations = await this.repository.allRegistrations(event.id);
    const members = await this.members.names(registrations.flatMap((r) => (r.memberId ? [r.memberId] : [])));
    const recipients = new Map<string, { to: string; firstName: string }>();
    for (const r of registrations) {
      const member = r.memberId ? members.get(r.memberId) : undefined;
      const email = member ? member.email : r.guestEmail;
      const firstName = member ? member.firstName : (r.guestFirstName ?? '');
      if (email && !recipients.has(email.toLowerCase())) recipients.set(email.toLowerCase(), { to: email, firstName });
    }
    if (!recipients.size) return;
    const { lang } = TenantContext.current();
    const mails = [...recipients.values()].map(({ to, firstName }) => ({
      to,
      ...cancellationMail(
        {
          firstName,
          eventName: event.name,
          startsAt: event.startsAt,
          timezone: event.timezone,
          reason: event.cancelReason,
        },
        lang,
      ),
    }));
    for (const mail of mails) await this.mailer.enqueueInTransaction(mail);
  }

  /** The events as GET answers them: their campuses in one query, their attendance counts in one grouped query. */
  private async respond(events: EventEntity[]): Promise<CalendarEventResponse[]> {
    const campuses = await this.campuses.byIdOf(events);
    const attendance = await this.attendance.countByEvent(events.map((e) => e.id));
    return events.map((e) => toEventResponse(e, campuses, attendance));
  }

  private async resolveCampus(ref: string | null | undefined, issues: FieldIssue[]): Promise<CampusEntity | null> {
    if (!ref) return null;
    const campus = (await this.campuses.resolveRefs([ref])).get(ref);
    if (!campus) issues.push({ field: 'campus', issue: 'not_found' });
    return campus ?? null;
  }

  private async save(id: string, changes: Partial<EventEntity>): Promise<void> {
    if (!(await this.repository.update(id, changes))) throw AppError.notFound('event');
  }

  private async require(id: string, lock?: RowLock): Promise<EventEntity> {
    const event = await this.repository.findLive(id, lock);
    if (!event) throw AppError.notFound('event');
    return event;
  }
}

function campusMap(campus: CampusEntity | null): Map<string, CampusEntity> {
  return new Map(campus ? [[campus.id, campus]] : []);
}
