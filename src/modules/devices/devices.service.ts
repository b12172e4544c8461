import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, toPublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import type { RowLock } from '../../database/row-lock';
import { ApiTokenEntity } from '../../platform/auth/api-token.entity';
import { NOT_FOR_CREDENTIALS } from '../../platform/auth/auth.decorator';
import type { Principal } from '../../platform/auth/principal';
import { KIOSK_SCOPES } from '../../platform/auth/scopes';
import { TokensService } from '../../platform/auth/tokens.service';
import { UsersService } from '../../platform/users/users.service';
import type { CampusEntity } from '../campuses/campus.entity';
import { toCampusRef } from '../campuses/campuses.mapper';
import { CampusesService } from '../campuses/campuses.service';
import { DeviceEntity } from './device.entity';
import { DEVICE_LIST } from './devices.list';
import { DevicesRepository } from './devices.repository';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { CreateDeviceDto } from './dto/create-device.dto';
import type { DeviceResponse, DeviceWithKeyResponse } from './dto/device.response';

/** Kiosk devices and their API keys (issued here, rotated here, never stored in clear). */
@Injectable()
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly campuses: CampusesService,
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly outbox: OutboxService,
  ) {}

  async register(dto: CreateDeviceDto, caller: Principal): Promise<DeviceWithKeyResponse> {
    const campusByRef = await this.campuses.resolveRefs(dto.campus ? [dto.campus] : []);
    const campus = dto.campus ? campusByRef.get(dto.campus) : undefined;
    if (dto.campus && !campus) throw AppError.validation([{ field: 'campus', issue: 'not_found' }]);
    const now = new Date();
    const device = Object.assign(new DeviceEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      name: dto.name.trim(),
      campusId: campus?.id ?? null,
      tokenId: null as string | null,
      createdAt: now,
      updatedAt: now,
    });
    await this.devices.insert(device);
    const { entity, value } = await this.issueKey(device, caller);
    device.tokenId = entity.id;
    await this.devices.update(device.id, { tokenId: entity.id });
    const response = this.respond(device, campus ?? null, entity);
    await this.outbox.record('device.registered', response);
    return { ...response, key: value };
  }

  /** A new key; the old one stops working at once. */
  async rotateKey(id: string, caller: Principal): Promise<DeviceWithKeyResponse> {
    // Locked: a concurrent rotation or removal waits, then revokes the key this one issues (or finds no device).
    const device = await this.require(id, 'for_no_key_update');
    if (device.tokenId) await this.tokens.revoke(device.tokenId);
    const { entity, value } = await this.issueKey(device, caller);
    const updatedAt = new Date();
    await this.devices.update(device.id, { tokenId: entity.id, updatedAt });
    Object.assign(device, { tokenId: entity.id, updatedAt });
    return { ...this.respond(device, await this.campusOf(device), entity), key: value };
  }

  async get(id: string): Promise<DeviceResponse> {
    const device = await this.require(id);
    return this.respond(
      device,
      await this.campusOf(device),
      device.tokenId ? await this.tokens.get(device.tokenId, null) : null,
    );
  }

  /**
   * The devices among `ids` as GET returns them (`key_display` included), by id (the changes feed's
   * objects): three queries (the devices, their campuses, their keys). None for an OAuth access
   * token or a kiosk key, which GET refuses (a credential route).
   */
  async getMany(ids: string[]): Promise<Map<string, DeviceResponse>> {
    const caller = TenantContext.current().actor.tokenType;
    if (caller && (NOT_FOR_CREDENTIALS as readonly string[]).includes(caller)) return new Map();
    const devices = await this.devices.findManyByIds(ids);
    const campusIds = [...new Set(devices.map((d) => d.campusId).filter((c): c is string => !!c))];
    const campuses = new Map((await this.campuses.findManyByIds(campusIds)).map((c) => [c.id, c]));
    const tokenIds = devices.map((d) => d.tokenId).filter((t): t is string => !!t);
    const tokens = new Map((await this.tokens.findMany(tokenIds)).map((t) => [t.id, t]));
    const found = new Map<string, DeviceResponse>();
    for (const d of devices) {
      // GET answers 404 when the device's key is not found: so is it absent here.
      if (d.tokenId && !tokens.has(d.tokenId)) continue;
      const campus = d.campusId ? (campuses.get(d.campusId) ?? null) : null;
      found.set(d.id, this.respond(d, campus, d.tokenId ? tokens.get(d.tokenId)! : null));
    }
    return found;
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<DeviceResponse>> {
    const page = await this.devices.list(parseListQuery(rawQuery, DEVICE_LIST));
    const campuses = new Map(
      (await this.campuses.findManyByIds(page.rows.map((d) => d.campusId).filter((c): c is string => !!c))).map((c) => [
        c.id,
        c,
      ]),
    );
    return toEnvelope(page, (d) => this.respond(d, d.campusId ? (campuses.get(d.campusId) ?? null) : null, null));
  }

  /** Revokes the key and removes the device. */
  async remove(id: string): Promise<void> {
    const device = await this.require(id, 'pessimistic_write');
    if (device.tokenId) await this.tokens.revoke(device.tokenId);
    await this.devices.delete(device.id);
  }

  private async issueKey(device: DeviceEntity, caller: Principal) {
    if (!caller.actingUserId)
      throw new AppError('scope_not_allowed', { scope: 'device registration (staff tokens only)' });
    const creator = await this.users.requireById(caller.actingUserId);
    return this.tokens.issue({
      type: 'kiosk',
      name: `kiosk: ${device.name}`,
      scopes: [...KIOSK_SCOPES],
      creator,
      // The console's caller acts through no token (tokenId ''): the key records no creator token.
      creatorTokenId: caller.tokenId || undefined,
      deviceId: device.id,
    });
  }

  private async require(id: string, lock?: RowLock): Promise<DeviceEntity> {
    const device = await this.devices.findById(id, lock);
    if (!device) throw AppError.notFound('device');
    return device;
  }

  private async campusOf(device: DeviceEntity): Promise<CampusEntity | null> {
    return device.campusId ? ((await this.campuses.findManyByIds([device.campusId]))[0] ?? null) : null;
  }

  private respond(device: DeviceEntity, campus: CampusEntity | null, token: ApiTokenEntity | null): DeviceResponse {
    return {
      id: toPublicId(ID_PREFIX.device, device.id),
      name: device.name,
      campus: campus ? toCampusRef(campus) : null,
      key_display: token ? `${token.tokenPrefix}…${token.last4}` : null,
      created_at: device.createdAt.toISOString(),
      updated_at: device.updatedAt.toISOString(),
    };
  }
}
