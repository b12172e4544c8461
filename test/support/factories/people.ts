import type { CampusRef, CampusResponse } from '../../../src/modules/campuses/dto/campus.response';
import type { CustomFieldResponse } from '../../../src/modules/custom-fields/dto/custom-field.response';
import type { GroupMemberResponse } from '../../../src/modules/groups/dto/group-member.response';
import type { GroupResponse } from '../../../src/modules/groups/dto/group.response';
import type { HouseholdResponse } from '../../../src/modules/households/dto/household.response';
import type { BulkCreateMembersResponse, MemberResponse } from '../../../src/modules/members/dto/member.response';
import type { PrayerRequestResponse } from '../../../src/modules/prayer-requests/dto/prayer-request.response';
import type { ProspectResponse } from '../../../src/modules/prospects/dto/prospect.response';
import type { TagResponse } from '../../../src/modules/tags/dto/tag.response';
import type { Call, JsonObject, TestApi } from '../api';
import type { Caller } from '../http';
import { answered, created, uniqueName } from './create';

/** POST /v1/campuses; the key is unique and the name `<key> campus` unless `body` gives them. */
export function newCampus(api: TestApi, church: Caller, body: JsonObject = {}, call?: Call): Promise<CampusResponse> {
  const key = typeof body.key === 'string' ? body.key : uniqueName('campus', '-');
  return created(api, church, '/v1/campuses', { key, name: `${key} campus`, ...body }, call);
}

/** A campus as other records show it (`{id, key, name}`). */
export const campusRef = ({ id, key, name }: CampusRef): CampusRef => ({ id, key, name });

/** POST /v1/members; Ana Ruiz unless `body` says otherwise. */
export function newMember(api: TestApi, church: Caller, body: JsonObject = {}, call?: Call): Promise<MemberResponse> {
  return created(api, church, '/v1/members', { first_name: 'Ana', last_name: 'Ruiz', ...body }, call);
}

/** POST /v1/members/bulk, 500 rows at a time (every row must be created); returns their ids. */
export async function newMembers(api: TestApi, church: Caller, rows: JsonObject[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const res = await created<BulkCreateMembersResponse>(
      api,
      church,
      '/v1/members/bulk',
      { members: rows.slice(i, i + 500) },
      {},
      200,
    );
    ids.push(...res.results.map((r) => r.id!));
  }
  return ids;
}

/** POST /v1/households; a unique name unless `body` gives one. */
export function newHousehold(
  api: TestApi,
  church: Caller,
  body: JsonObject = {},
  call?: Call,
): Promise<HouseholdResponse> {
  return created(api, church, '/v1/households', { name: uniqueName('Household'), ...body }, call);
}

/** POST /v1/households/{id}/members: puts a member in the household (`household_role` in `body`). */
export function addToHousehold(
  api: TestApi,
  church: Caller,
  householdId: string,
  body: JsonObject,
  call?: Call,
): Promise<HouseholdResponse> {
  return created(api, church, `/v1/households/${householdId}/members`, body, call, 200);
}

/** POST /v1/tags; a unique name unless `body` gives one. */
export function newTag(api: TestApi, church: Caller, body: JsonObject = {}, call?: Call): Promise<TagResponse> {
  return created(api, church, '/v1/tags', { name: uniqueName('tag', '-'), ...body }, call);
}

/** POST /v1/prospects; Pedro Gómez unless `body` says otherwise. */
export function newProspect(
  api: TestApi,
  church: Caller,
  body: JsonObject = {},
  call?: Call,
): Promise<ProspectResponse> {
  return created(api, church, '/v1/prospects', { first_name: 'Pedro', last_name: 'Gómez', ...body }, call);
}

/** POST /v1/custom-fields (`key`, `label`, `type`, `options`, `required`). */
export function newCustomField(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<CustomFieldResponse> {
  return created(api, church, '/v1/custom-fields', body, call);
}

/** POST /v1/groups; a unique name unless `body` gives one. */
export function newGroup(api: TestApi, church: Caller, body: JsonObject = {}, call?: Call): Promise<GroupResponse> {
  return created(api, church, '/v1/groups', { name: uniqueName('Group'), ...body }, call);
}

/** PUT /v1/groups/{id}/members/{member_id}: a member joins a group (`group_role` in `body`). */
export function joinGroup(
  api: TestApi,
  church: Caller,
  groupId: string,
  memberId: string,
  body: JsonObject = {},
  call?: Call,
): Promise<GroupMemberResponse> {
  return answered(api, 'PUT', church, `/v1/groups/${groupId}/members/${memberId}`, body, call, 200);
}

/** POST /v1/prayer-requests (`call.token`: a staff member's token with the prayer scopes). */
export function newPrayerRequest(
  api: TestApi,
  church: Caller,
  body: JsonObject,
  call?: Call,
): Promise<PrayerRequestResponse> {
  return created(api, church, '/v1/prayer-requests', body, call);
}
