import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { CampusEntity } from './campus.entity';
import { CAMPUS_LIST } from './campuses.list';
import { toCampusResponse } from './campuses.mapper';
import { CampusesRepository } from './campuses.repository';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import type { CreateCampusDto } from './dto/create-campus.dto';
import type { CampusResponse } from './dto/campus.response';
import type { UpdateCampusDto } from './dto/update-campus.dto';

@Injectable()
export class CampusesService {
  constructor(
    private readonly campuses: CampusesRepository,
    private readonly outbox: OutboxService,
    private readonly totals: ListTotals,
  ) {}

  async create(dto: CreateCampusDto): Promise<CampusResponse> {
    await this.assertKeyFree(dto.key);
    const now = new Date();
    const campus = Object.assign(new CampusEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      key: dto.key,
      name: dto.name.trim(),
      timezone: dto.timezone ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await this.campuses.insert(campus);
    const response = toCampusResponse(campus);
    await this.outbox.record('campus.created', response);
    return response;
  }

  async get(id: string): Promise<CampusResponse> {
    return toCampusResponse(await this.require(id));
  }

  /** The campuses among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, CampusResponse>> {
    return new Map((await this.campuses.findManyByIds(ids)).map((c) => [c.id, toCampusResponse(c)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<CampusResponse>> {
    const page = await this.campuses.list(parseListQuery(rawQuery, CAMPUS_LIST));
    return toEnvelope(page, toCampusResponse);
  }

  async update(id: string, dto: UpdateCampusDto): Promise<CampusResponse> {
    const campus = await this.require(id);
    if (dto.key === null || dto.name === null) {
      throw AppError.validation([{ field: dto.key === null ? 'key' : 'name', issue: 'required' }]);
    }
    if (dto.key !== undefined && dto.key !== campus.key) await this.assertKeyFree(dto.key);
    const changes: Partial<CampusEntity> = { updatedAt: new Date() };
    if (dto.key !== undefined) changes.key = dto.key;
    if (dto.name !== undefined) changes.name = dto.name.trim();
    if (dto.timezone !== undefined) changes.timezone = dto.timezone;
    await this.campuses.update(campus, changes);
    this.totals.invalidate('members'); // member lists show the campus key and name
    return toCampusResponse(Object.assign(campus, changes));
  }

  /** A campus named by its key or its `cmp_` id, as member bodies and filters do. */
  async resolveRefs(refs: string[]): Promise<Map<string, CampusEntity>> {
    const ids = refs.map((r) => parsePublicId(ID_PREFIX.campus, r)).filter((id): id is string => id !== null);
    const keys = refs.filter((r) => !r.startsWith(`${ID_PREFIX.campus}_`));
    const found = [...(await this.campuses.findManyByIds(ids)), ...(await this.campuses.findManyByKeys(keys))];
    const byRef = new Map<string, CampusEntity>();
    for (const campus of found) {
      byRef.set(campus.key, campus);
      byRef.set(`${ID_PREFIX.campus}_${campus.id.replace(/-/g, '')}`, campus);
    }
    return byRef;
  }

  findAllForChurch(): Promise<CampusEntity[]> {
    return this.campuses.findAllForChurch();
  }

  findManyByIds(ids: string[]): Promise<CampusEntity[]> {
    return this.campuses.findManyByIds(ids);
  }

  /** The campuses of these rows (members, prospects…), by id, in one query. */
  async byIdOf(rows: { campusId: string | null }[]): Promise<Map<string, CampusEntity>> {
    const ids = [...new Set(rows.map((r) => r.campusId).filter((id): id is string => id !== null))];
    return new Map((await this.campuses.findManyByIds(ids)).map((c) => [c.id, c]));
  }

  private async require(id: string): Promise<CampusEntity> {
    const campus = await this.campuses.findById(id);
    if (!campus) throw AppError.notFound('campus');
    return campus;
  }

  private async assertKeyFree(key: string): Promise<void> {
    if (await this.campuses.findByKey(key)) {
      throw new AppError('conflict', { reason: `a campus with key ${key} exists` }, [
        { field: 'key', issue: 'duplicate' },
      ]);
    }
  }
}
