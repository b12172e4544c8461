import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { interpolate } from '../../common/i18n/language';
import { ID_PREFIX, parsePublicId, requirePublicId } from '../../common/ids/id';
import { AppValidationPipe } from '../../common/validation/app-validation.pipe';
import { Public } from '../../platform/auth/auth.decorator';
import { CampusesService } from '../campuses/campuses.service';
import { DevicesService } from '../devices/devices.service';
import { CreateDeviceDto } from '../devices/dto/create-device.dto';
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import { ConsoleGate, field, seeOther } from './console-gate';
import { hrefOf } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import type { ConsoleSession } from './console-sessions.service';
import { shortTime } from './console-webhooks.view';

interface DevicesState {
  problem?: PageProblem;
  sent?: { name: string; campus: string };
  /** A key just issued (register or rotate): shown this once. */
  key?: { name: string; value: string };
}

/**
 * Devices (CONTRACT §20): the church's kiosks; register one (its key shown once), rotate a key (the
 * new one shown once, the old one ends at once), remove one. Each through DevicesService and the
 * audit entry of its `/v1/devices` route; admin:* there, so org_admin only here.
 */
@ApiExcludeController()
@Controller('console/devices')
export class ConsoleDevicesController {
  private readonly validation = new AppValidationPipe();

  constructor(
    private readonly gate: ConsoleGate,
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly devices: DevicesService,
    private readonly campuses: CampusesService,
  ) {}

  @Get()
  @Public()
  async devicesPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'devices');
    if (session) await this.show(req, res, session, {});
  }

  /** As POST /v1/devices: the same DTO, service, event (device.registered) and audit entry. */
  @Post()
  @HttpCode(200)
  @Public()
  async register(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'devices');
    if (!checked) return;
    const sent = { name: field(checked.fields, 'name') ?? '', campus: field(checked.fields, 'campus') ?? '' };
    try {
      const dto = (await this.validation.transform(
        { name: sent.name, campus: sent.campus || null },
        { type: 'body', metatype: CreateDeviceDto },
      )) as CreateDeviceDto;
      const device = await this.actions.run(req, checked.session, async () => {
        const registered = await this.devices.register(dto, this.actions.principal(checked.session, false));
        await this.actions.record(req, { action: 'devices.register', resourceId: registered.id, status: 201 });
        return registered;
      });
      await this.show(req, res, checked.session, { key: { name: device.name, value: device.key! } });
    } catch (error) {
      return this.show(req, res, checked.session, { problem: pageProblem(error, req.lang, req.id), sent });
    }
  }

  /** As POST /v1/devices/{id}/rotate-key: a new key shown once; the old one stops working at once. */
  @Post(':id/rotate')
  @HttpCode(200)
  @Public()
  async rotate(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'devices');
    if (!checked) return;
    try {
      const device = await this.actions.run(req, checked.session, async () => {
        const uuid = requirePublicId(ID_PREFIX.device, id, 'device');
        const rotated = await this.devices.rotateKey(uuid, this.actions.principal(checked.session, false));
        await this.actions.record(req, { action: 'devices.rotate_key', resourceId: id, status: 200 });
        return rotated;
      });
      await this.show(req, res, checked.session, { key: { name: device.name, value: device.key! } });
    } catch (error) {
      return this.show(req, res, checked.session, { problem: pageProblem(error, req.lang, req.id) });
    }
  }

  @Post(':id/revoke')
  @HttpCode(303)
  @Public()
  async revoke(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'devices');
    if (!checked) return;
    try {
      await this.actions.run(req, checked.session, async () => {
        // As DELETE /v1/devices/{id}: a malformed id is the API's 404; the same audit entry.
        const uuid = requirePublicId(ID_PREFIX.device, id, 'device');
        await this.devices.remove(uuid);
        await this.actions.record(req, { action: 'devices.remove', resourceId: id, status: 204 });
      });
    } catch (error) {
      return this.show(req, res, checked.session, { problem: pageProblem(error, req.lang, req.id) });
    }
    seeOther(res, `${hrefOf('devices')}?done=revoked`);
  }

  private async show(req: ApiRequest, res: Response, session: ConsoleSession, state: DevicesState): Promise<void> {
    const all = this.pages.texts(req.lang);
    const t = all.devices;
    const { devices, keys, campuses } = await this.actions.run(req, session, async () => {
      const list = await this.devices.list({ limit: '250' });
      // The list has no key_display (GET /v1/devices/{id} has it): the keys' hints in one more round.
      const uuids = list.data.map((d) => parsePublicId(ID_PREFIX.device, d.id)!);
      return {
        devices: list,
        keys: await this.devices.getMany(uuids),
        campuses: await this.campuses.list({ limit: '250' }),
      };
    });
    const problem = state.problem;
    await this.pages.page(
      res,
      session,
      {
        lang: req.lang,
        id: 'devices',
        title: t.title,
        view: 'console/devices',
        status: problem?.status,
        script: state.key !== undefined,
      },
      {
        t: { ...all, ...all.tokens, ...t },
        action: hrefOf('devices'),
        problem,
        errors: problem?.fields ?? {},
        notice: !problem && req.method === 'GET' && req.query.done === 'revoked' ? t.revoked : undefined,
        secret: state.key ? { ...state.key, href: hrefOf('devices') } : undefined,
        form: {
          name: state.sent?.name ?? '',
          campuses: campuses.data.map((c) => ({ value: c.key, name: c.name, selected: c.key === state.sent?.campus })),
        },
        devices: devices.data.map((d) => ({
          name: d.name,
          campus: d.campus?.name ?? '—',
          key: keys.get(parsePublicId(ID_PREFIX.device, d.id)!)?.key_display ?? '—',
          created: shortTime(d.created_at, req.lang, ''),
          rotateAction: `${hrefOf('devices')}/${d.id}/rotate`,
          rotateLabel: interpolate(t.rotateLabel, { name: d.name }),
          revokeAction: `${hrefOf('devices')}/${d.id}/revoke`,
          revokeLabel: interpolate(t.revokeLabel, { name: d.name }),
        })),
      },
    );
  }
}
