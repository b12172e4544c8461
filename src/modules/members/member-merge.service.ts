import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { DEFAULT_LANGUAGE } from '../../common/i18n/language';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../common/ids/id';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { CampusesService } from '../campuses/campuses.service';
import { CustomFieldsService } from '../custom-fields/custom-fields.service';
import type { MemberMergeResponse } from './dto/member-merge.response';
import type { MergeField, MergeMemberDto, MergePreferDto, MergeSide } from './dto/merge-member.dto';
import { MemberMergeRepository } from './member-merge.repository';
import { MemberTagRefs } from './member-tag-refs';
import type { CustomFields, MemberEntity } from './member.entity';
import { toMemberResponse } from './members.mapper';
import { MembersRepository } from './members.repository';

const invalid = (reason: string) => new AppError('merge_invalid', { reason });
const memberRef = (id: string) => toPublicId(ID_PREFIX.member, id);

/**
 * POST /v1/members/{id}/merge (CONTRACT §17): the duplicate's records move to the survivor, the
 * survivor's empty fields are filled from the duplicate (or as `prefer` says), and the duplicate is
 * deleted with `merged_into`, all in the request's one transaction; `member.merged` and
 * `member.deleted` are raised in it.
 *
 * Locks, in the order every member write takes them: the custom field definitions (FOR KEY SHARE,
 * as a write of custom_fields does: a definition deleted meanwhile then takes its key out of the
 * survivor too), the duplicate's household (FOR KEY SHARE: it cannot be deleted under the survivor
 * who joins it), then both members FOR UPDATE in id order (MemberMergeRepository.lockPair): two
 * merges of the same people, either way round, run one after the other and the second finds the
 * first done (422); a write that follows a merged id (MembersRepository.findLiveOrSurvivor) waits
 * for the merge and lands on the survivor.
 */
@Injectable()
export class MemberMergeService {
  constructor(
    private readonly members: MembersRepository,
    private readonly merges: MemberMergeRepository,
    private readonly campuses: CampusesService,
    private readonly customFields: CustomFieldsService,
    private readonly memberTags: MemberTagRefs,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
  ) {}

  async merge(survivorId: string, dto: MergeMemberDto): Promise<MemberMergeResponse> {
    const duplicateId = parsePublicId(ID_PREFIX.member, dto.duplicate_id);
    if (!duplicateId) throw AppError.validation([{ field: 'duplicate_id', issue: 'not_found' }]);
    if (duplicateId === survivorId) throw invalid('a member cannot be merged into itself');

    const definedKeys = new Set((await this.customFields.definitions(true)).map((d) => d.key));
    const seen = await this.members.findLive(duplicateId);
    const households = seen?.householdId ? await this.members.liveHouseholds([seen.householdId]) : new Set<string>();
    const locked = await this.merges.lockPair([survivorId, duplicateId]);
    const survivor = locked.find((m) => m.id === survivorId);
    const duplicate = locked.find((m) => m.id === duplicateId);
    if (!survivor || survivor.deletedAt)
      throw invalid(`the member ${memberRef(survivorId)} does not exist or was deleted`);
    if (!duplicate) throw invalid(`the member ${dto.duplicate_id} does not exist`);
    if (duplicate.mergedInto)
      throw invalid(`the member ${dto.duplicate_id} was already merged into ${memberRef(duplicate.mergedInto)}`);
    if (duplicate.deletedAt) throw invalid(`the member ${dto.duplicate_id} was deleted`);
    // Moved to another household since it was read (before the locks): that one is checked now.
    if (duplicate.householdId && !households.has(duplicate.householdId))
      for (const id of await this.members.liveHouseholds([duplicate.householdId])) households.add(id);

    const changes = mergedFields(survivor, duplicate, dto.prefer ?? {}, { definedKeys, liveHouseholds: households });
    const tookHousehold = changes.householdId !== undefined && changes.householdId === duplicate.householdId;
    const duplicateTags = await this.memberTags.ofOne(duplicate.id);
    const now = new Date();
    const moved = await this.merges.moveRecords(survivor.id, duplicate.id, now);
    changes.updatedAt = now;
    await this.members.update(survivor.id, changes);
    await this.merges.markMerged(duplicate.id, survivor.id, now);
    this.totals.invalidate('members');
    this.totals.invalidate('donations');
    this.totals.invalidate('attendance');

    const merged = Object.assign(survivor, changes);
    const deleted = Object.assign(duplicate, { deletedAt: now, mergedInto: survivor.id, updatedAt: now });
    const campuses = await this.campuses.byIdOf([merged, deleted]);
    const tags = await this.memberTags.ofOne(survivor.id);
    const duplicatePublicId = memberRef(duplicate.id);
    await this.outbox.recordMany(
      'member.merged',
      [toMemberResponse(merged, campuses, DEFAULT_LANGUAGE, tags)],
      [{ duplicate_id: duplicatePublicId }],
    );
    await this.outbox.record('member.deleted', toMemberResponse(deleted, campuses, DEFAULT_LANGUAGE, duplicateTags));
    return {
      ...toMemberResponse(merged, campuses, TenantContext.current().lang, tags),
      duplicate_id: duplicatePublicId,
      duplicate_household_id: duplicate.householdId ? toPublicId(ID_PREFIX.household, duplicate.householdId) : null,
      moved: { ...moved, household: tookHousehold ? 1 : 0 },
    };
  }
}

/** The member columns of the fields a merge fills one for one (household_id and custom_fields have rules of their own). */
const COLUMNS = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  phone: 'phone',
  birthdate: 'birthdate',
  gender: 'gender',
  status: 'status',
  campus: 'campusId',
  active: 'active',
  address: 'address',
} as const satisfies Record<Exclude<MergeField, 'household_id' | 'custom_fields'>, keyof MemberEntity>;

/** No value: null, an empty string, an object (an address) whose parts are all empty. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  return typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(isEmpty);
}

/** By default the survivor's value, the duplicate's when the survivor has none; `duplicate` the other way round; `survivor` the survivor's as it is. */
function pick<T>(side: MergeSide | undefined, survivors: T, duplicates: T): T {
  if (side === 'survivor') return survivors;
  if (side === 'duplicate') return isEmpty(duplicates) ? survivors : duplicates;
  return isEmpty(survivors) ? duplicates : survivors;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The survivor's fields after the merge, as changes (only what differs). Field by field (see pick);
 * the household together with the role in it, and only a live one; custom fields key by key, only
 * the keys the church still defines.
 */
export function mergedFields(
  survivor: MemberEntity,
  duplicate: MemberEntity,
  prefer: MergePreferDto,
  context: { definedKeys: Set<string>; liveHouseholds: Set<string> },
): Partial<MemberEntity> {
  const changes: Partial<MemberEntity> = {};
  const set = <K extends keyof MemberEntity>(column: K, value: MemberEntity[K]) => {
    if (!same(survivor[column], value)) changes[column] = value;
  };
  for (const [field, column] of Object.entries(COLUMNS) as [
    keyof typeof COLUMNS,
    (typeof COLUMNS)[keyof typeof COLUMNS],
  ][])
    set(column, pick(prefer[field], survivor[column], duplicate[column]));

  const theirs =
    duplicate.householdId && context.liveHouseholds.has(duplicate.householdId) ? duplicate.householdId : null;
  const household = pick(prefer.household_id, survivor.householdId, theirs);
  if (
    household !== null &&
    household === theirs &&
    (household !== survivor.householdId || prefer.household_id === 'duplicate')
  ) {
    set('householdId', household);
    set('householdRole', duplicate.householdRole);
  }

  if (prefer.custom_fields !== 'survivor') {
    const fields: CustomFields = { ...survivor.customFields };
    for (const [key, value] of Object.entries(duplicate.customFields)) {
      if (!context.definedKeys.has(key)) continue;
      const kept = pick(prefer.custom_fields, survivor.customFields[key] ?? null, value);
      if (kept !== null || key in fields) fields[key] = kept;
    }
    set('customFields', fields);
  }
  return changes;
}
