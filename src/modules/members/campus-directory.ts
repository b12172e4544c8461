import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../common/caching/bounded-map';
import { TenantContext } from '../../common/context/tenant-context';
import type { CampusEntity } from '../campuses/campus.entity';
import { CampusesService } from '../campuses/campuses.service';
import type { MemberEntity } from './member.entity';

const MAX_CHURCHES = 1_000;

/**
 * Each church's campuses, kept in process under the members list version they were loaded at, so
 * member pages need no campus query while nothing changed. Safe because a campus update replaces
 * the members list version (CampusesService.update), as every member write does: an entry is only
 * read while its version is current. A new campus does not replace the version, but no member
 * points to it until a member write does; a page naming a campus the entry lacks reloads it.
 */
@Injectable()
export class CampusDirectory {
  private readonly byChurch = new BoundedMap<string, { version: string; campuses: Map<string, CampusEntity> }>(
    MAX_CHURCHES,
  );

  constructor(private readonly campuses: CampusesService) {}

  async campusesOf(members: MemberEntity[], membersListVersion: string): Promise<Map<string, CampusEntity>> {
    const { tenantId } = TenantContext.current();
    const entry = this.byChurch.get(tenantId);
    if (
      entry?.version === membersListVersion &&
      members.every((m) => m.campusId === null || entry.campuses.has(m.campusId))
    )
      return entry.campuses;
    const campuses = new Map((await this.campuses.findAllForChurch()).map((c) => [c.id, c]));
    this.byChurch.set(tenantId, { version: membersListVersion, campuses });
    return campuses;
  }
}
