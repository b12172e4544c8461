import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId, requirePublicId, toPublicId } from '../../common/ids/id';
import { Database } from '../../database/database.service';
import { AttendanceService } from '../attendance/attendance.service';
import { MemberLookup } from '../members/member-lookup';
import { CheckInEntity } from './check-in.entity';
import { CheckInRepository, SearchRow } from './check-in.repository';
import type { CheckInSearchQuery } from './dto/check-in-search.query';
import type { CheckInLabel, CheckInResponse, CheckInSearchResponse, CheckoutResponse } from './dto/check-in.response';
import type { CheckInSettingsDto, CheckInSettingsResponse } from './dto/check-in-settings.dto';
import type { CheckoutDto } from './dto/checkout.dto';
import type { CreateCheckInDto } from './dto/create-check-in.dto';
import { BANNED_SEQUENCES, CHURCH_SEQUENCE, CHURCH_SEQUENCE_FORMAT, newSecurityCode } from './security-code';

/** Wrong check-out codes that lock a check-in's check-out, and for how long (CONTRACT §21). */
export const CHECKOUT_LOCK = { failures: 5, seconds: 15 * 60 } as const;

/** Codes tried before giving up (each a unique-index probe): a day would need ~300,000 visits to make this fail. */
const CODE_ATTEMPTS = 50;

interface LabelMember {
  id: string;
  firstName: string;
  lastName: string;
  /** The `allergies` custom field's value; undefined when the church defines no such field. */
  allergies?: string | null;
}

@Injectable()
export class CheckInService {
  constructor(
    private readonly checkIns: CheckInRepository,
    private readonly attendance: AttendanceService,
    private readonly members: MemberLookup,
    private readonly db: Database,
  ) {}

  /** GET /v1/check-in/search: 404 for an event the church does not have. */
  async search(query: CheckInSearchQuery): Promise<CheckInSearchResponse> {
    const hasPhone = query.phone_last4 !== undefined;
    if (hasPhone === (query.name !== undefined)) {
      // Exactly one of the two: both is ambiguous, neither matches nobody.
      throw AppError.invalidParameter(hasPhone ? 'name' : 'phone_last4', hasPhone ? 'invalid' : 'required');
    }
    const name = query.name?.trim();
    if (name !== undefined && name.length < 2) throw AppError.invalidParameter('name', 'too_short', { min: 2 });
    const eventId = requirePublicId(ID_PREFIX.event, query.event_id, 'event');
    if (!(await this.checkIns.findEvent(eventId))) throw AppError.notFound('event');
    const rows = await this.checkIns.search(eventId, hasPhone ? { phoneLast4: query.phone_last4! } : { name: name! });
    return { data: groupHouseholds(rows) };
  }

  /**
   * POST /v1/check-ins: one security code for the visit (unique per church per day: another is
   * drawn while the unique index refuses it), then one attendance record per person through
   * AttendanceService (409 `already_checked_in` when anyone is recorded at the event already; the
   * whole call is then undone).
   */
  async checkIn(dto: CreateCheckInDto): Promise<CheckInResponse> {
    const issues: FieldIssue[] = [];
    const eventId = parsePublicId(ID_PREFIX.event, dto.event_id);
    const event = eventId ? await this.checkIns.findEvent(eventId) : null;
    if (!event) issues.push({ field: 'event_id', issue: 'not_found' });

    const named = dto.member_ids.map((ref) => parsePublicId(ID_PREFIX.member, ref));
    // Who each id names: a member merged into another names the survivor (CONTRACT §17). Locked FOR
    // KEY SHARE until the transaction ends: a merge of them waits for the check-in (and then moves
    // it), or has committed and is followed.
    const survivors = await this.members.liveOrSurvivorIds(
      named.filter((id): id is string => id !== null),
      'for_key_share',
    );
    const memberIds: string[] = [];
    named.forEach((id, i) => {
      const member = id && survivors.get(id);
      if (!member) issues.push({ field: `member_ids.${i}`, issue: 'not_found' });
      else if (!memberIds.includes(member)) memberIds.push(member);
    });
    // The live members, in one query with their `allergies` custom field when the church defines it.
    const members: LabelMember[] = memberIds.length
      ? (await this.members.withCustomField(memberIds, 'allergies')).map(({ value, ...member }) =>
          value === undefined ? member : { ...member, allergies: value },
        )
      : [];
    const byId = new Map(members.map((m) => [m.id, m]));

    const { actor } = TenantContext.current();
    let deviceId: string | null = null;
    if (dto.device_id) {
      deviceId = parsePublicId(ID_PREFIX.device, dto.device_id);
      if (!deviceId || !(await this.checkIns.deviceExists(deviceId)))
        issues.push({ field: 'device_id', issue: 'not_found' });
    } else if (actor.tokenId) {
      deviceId = await this.checkIns.deviceOfToken(actor.tokenId);
    }
    if (issues.length) throw AppError.validation(issues);
    if (event!.status === 'canceled') throw new AppError('event_canceled');

    const base = {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      eventId: event!.id,
      memberIds,
      deviceId,
      tokenId: actor.tokenId ?? null,
    };
    const row = {
      ...base,
      checkedOutAt: null,
      checkedOutDeviceId: null,
      checkedOutTokenId: null,
      checkoutFailures: 0,
      checkoutLockedUntil: null,
    };
    let checkIn: CheckInEntity | null = null;
    // The church's own banned sequences, read once (in the request's transaction) for every draw.
    const banned = await this.checkIns.bannedSequences();
    for (let attempt = 0; !checkIn && attempt < CODE_ATTEMPTS; attempt++) {
      const code = newSecurityCode(banned);
      if (code === null) break;
      checkIn = await this.checkIns.insertWithCode(row, event!.timezone, code);
    }
    if (!checkIn) throw new AppError('conflict', { reason: 'no security code is left for today; try again' });

    try {
      await this.attendance.recordMany(
        memberIds.map((memberId) => ({
          eventId: event!.id,
          memberId,
          kind: 'regular' as const,
          checkedInAt: checkIn.createdAt,
          checkInId: checkIn.id,
        })),
      );
    } catch (error) {
      // AttendanceService names the members already recorded; the code of that answer is ours.
      if (error instanceof AppError && error.code === 'conflict')
        throw new AppError('already_checked_in', error.params, error.errors);
      throw error;
    }
    return toCheckInResponse(
      checkIn,
      memberIds.map((id) => byId.get(id)!),
    );
  }

  /** GET /v1/settings/check-in: the church's banned sequences and the built-in ones. */
  async settings(): Promise<CheckInSettingsResponse> {
    return toSettingsResponse(await this.checkIns.bannedSequences());
  }

  /**
   * PUT /v1/settings/check-in: replaces the church's banned sequences (absent: none). Each is 2 to 4
   * characters of the code alphabet, in any letter case (saved upper-cased); a bad one is a 422
   * issue naming its position. Repeats are kept once, in the order first given.
   */
  async saveSettings(dto: CheckInSettingsDto): Promise<CheckInSettingsResponse> {
    const given = dto.banned_sequences ?? [];
    const issues: FieldIssue[] = [];
    const sequences: string[] = [];
    given.forEach((value, i) => {
      const field = `banned_sequences[${i}]`;
      // ASCII letters only: toUpperCase() would turn some other characters into letters of the alphabet (ﬀ into FF).
      const sequence = value.replace(/[a-z]/g, (c) => c.toUpperCase());
      if (sequence.length < 2) issues.push({ field, issue: 'too_short', params: { min: 2 } });
      else if (sequence.length > 4) issues.push({ field, issue: 'too_long', params: { max: 4 } });
      else if (!CHURCH_SEQUENCE.test(sequence))
        issues.push({ field, issue: 'invalid_format', params: { format: CHURCH_SEQUENCE_FORMAT } });
      else if (!sequences.includes(sequence)) sequences.push(sequence);
    });
    if (issues.length) throw AppError.validation(issues);
    await this.checkIns.saveBannedSequences(sequences);
    return toSettingsResponse(sequences);
  }

  /**
   * POST /v1/check-ins/{id}/checkout (@OutsideTransaction). Under the row lock: a locked check-out is
   * 423 `checkout_locked` whatever the code; a wrong code is 422 and is counted, the CHECKOUT_LOCK
   * `failures`-th locking it for `seconds`; the right one records when and by which device and token
   * and clears the count. A second checkout is 409.
   *
   * The count must outlive the 422, and an error thrown in the request's transaction rolls it back.
   * So the route runs without one, and the work runs in ONE short transaction of the church
   * (Database.transaction) that RETURNS its refusal: the refusal is thrown once that transaction has
   * committed. (Not the platform connection of the OAuth sign-in throttle, which runs before a church
   * is known: here row-level security still confines the write to the church.) Concurrent attempts
   * on one check-in queue on the row lock, each seeing the count the previous one committed, and the
   * count is `checkout_failures + 1` in SQL: none is lost, and the limit-th locks the rest out.
   */
  async checkout(id: string, dto: CheckoutDto): Promise<CheckoutResponse> {
    const outcome = await this.db.transaction(() => this.tryCheckout(id, dto));
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  /** In the checkout's transaction: a refusal that must commit (a counted wrong code) is returned, not thrown. */
  private async tryCheckout(id: string, dto: CheckoutDto): Promise<CheckoutResponse | AppError> {
    const checkIn = await this.checkIns.findById(id, 'for_no_key_update');
    if (!checkIn) throw AppError.notFound('check-in');
    const lockedFor = checkIn.checkoutLockedUntil ? await this.checkIns.checkoutLockSeconds(id) : 0;
    if (lockedFor > 0)
      return new AppError('checkout_locked', { retry_after: lockedFor }, [], { 'Retry-After': String(lockedFor) });
    if (dto.security_code.trim().toUpperCase() !== checkIn.securityCode) {
      await this.checkIns.recordCheckoutFailure(id, CHECKOUT_LOCK);
      return new AppError('security_code_mismatch');
    }
    if (checkIn.checkedOutAt)
      throw new AppError('conflict', { reason: `checked out already at ${checkIn.checkedOutAt.toISOString()}` });
    const { actor } = TenantContext.current();
    const now = new Date();
    const changes = {
      checkedOutAt: now,
      checkedOutTokenId: actor.tokenId ?? null,
      checkedOutDeviceId: actor.tokenId ? await this.checkIns.deviceOfToken(actor.tokenId) : null,
      checkoutFailures: 0,
      checkoutLockedUntil: null,
      updatedAt: now,
    };
    await this.checkIns.update(id, changes);
    const done = Object.assign(checkIn, changes);
    return {
      id: toPublicId(ID_PREFIX.checkIn, done.id),
      event_id: toPublicId(ID_PREFIX.event, done.eventId),
      member_ids: done.memberIds.map((m) => toPublicId(ID_PREFIX.member, m)),
      checked_in_at: done.createdAt.toISOString(),
      checked_out_at: now.toISOString(),
      checked_out_device_id: done.checkedOutDeviceId ? toPublicId(ID_PREFIX.device, done.checkedOutDeviceId) : null,
      checked_out_token_id: done.checkedOutTokenId ? toPublicId(ID_PREFIX.token, done.checkedOutTokenId) : null,
    };
  }
}

function toSettingsResponse(sequences: string[]): CheckInSettingsResponse {
  return { banned_sequences: sequences, built_in: [...BANNED_SEQUENCES] };
}

function toCheckInResponse(checkIn: CheckInEntity, members: LabelMember[]): CheckInResponse {
  const code = checkIn.securityCode;
  const labels = members.map((m) => {
    const label: CheckInLabel = {
      member_id: toPublicId(ID_PREFIX.member, m.id),
      first_name: m.firstName,
      last_name: m.lastName,
      security_code: code,
    };
    if (m.allergies !== undefined) label.allergies = m.allergies;
    return label;
  });
  return {
    id: toPublicId(ID_PREFIX.checkIn, checkIn.id),
    event_id: toPublicId(ID_PREFIX.event, checkIn.eventId),
    security_code: code,
    labels,
    parent_label: { security_code: code, names: members.map((m) => `${m.firstName} ${m.lastName}`) },
    device_id: checkIn.deviceId ? toPublicId(ID_PREFIX.device, checkIn.deviceId) : null,
    checked_in_at: checkIn.createdAt.toISOString(),
  };
}

/** Rows (ordered by household) into households with their members. */
function groupHouseholds(rows: SearchRow[]): CheckInSearchResponse['data'] {
  const out: CheckInSearchResponse['data'] = [];
  let key: string | null = null;
  for (const row of rows) {
    const rowKey = row.householdId ?? `solo:${row.id}`;
    if (rowKey !== key) {
      out.push({
        id: row.householdId ? toPublicId(ID_PREFIX.household, row.householdId) : null,
        name: row.householdName,
        members: [],
      });
      key = rowKey;
    }
    out[out.length - 1].members.push({
      id: toPublicId(ID_PREFIX.member, row.id),
      first_name: row.firstName,
      last_name: row.lastName,
      age: row.age,
      checked_in: row.checkedIn,
    });
  }
  return out;
}
