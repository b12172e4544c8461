import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { renderSvgChart } from '../../common/charts/svg-chart';
import type { ApiRequest } from '../../common/http/request';
import { interpolate } from '../../common/i18n/language';
import { ID_PREFIX, requirePublicId } from '../../common/ids/id';
import { parseListQuery } from '../../common/lists/list-query';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import type { AuditEntryResponse } from '../audit-log/dto/audit-entry.response';
import { Public } from '../../platform/auth/auth.decorator';
import { effectiveQuota } from '../../platform/rate-limit/quotas';
import { UsageMeter } from '../../platform/rate-limit/usage-meter';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import type { Plan } from '../../platform/tenancy/tenant.entity';
import { toAuditResponse } from '../audit-log/audit-log.controller';
import { AUDIT_LIST } from '../audit-log/audit-log.list';
import { AuditLogService } from '../audit-log/audit-log.service';
import { DevicesService } from '../devices/devices.service';
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import { ConsoleGate, seeOther } from './console-gate';
import { hrefOf } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import type { ConsoleSession } from './console-sessions.service';
import { shortTime } from './console-webhooks.view';

const AUDIT_PAGE = 50;

/**
 * Devices (org_admin: the church's kiosks, revoke), Audit log (org_admin: newest first, paged,
 * filtered by action) and Usage (every role: today's requests against the plan), each through the
 * service of its API route (`/v1/devices`, `/v1/audit-log`, `/v1/usage`).
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleOverviewController {
  constructor(
    private readonly gate: ConsoleGate,
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly devices: DevicesService,
    private readonly audit: AuditLogService,
    private readonly usage: UsageMeter,
    private readonly tenants: TenantsService,
  ) {}

  @Get('devices')
  @Public()
  async devicesPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'devices');
    if (session) await this.showDevices(req, res, session);
  }

  @Post('devices/:id/revoke')
  @HttpCode(303)
  @Public()
  async revokeDevice(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
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
      const problem = pageProblem(error, req.lang, req.id);
      return this.showDevices(req, res, checked.session, problem);
    }
    seeOther(res, `${hrefOf('devices')}?done=revoked`);
  }

  @Get('audit-log')
  @Public()
  async auditPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'audit');
    if (!session) return;
    const all = this.pages.texts(req.lang);
    const t = all.audit;
    const action = typeof req.query.action === 'string' ? req.query.action.trim() : '';
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const query: Record<string, unknown> = { limit: String(AUDIT_PAGE), sort: '-created_at' };
    if (action) query.action = action;
    if (cursor) query.cursor = cursor;
    let problem: PageProblem | undefined;
    let page: ListEnvelope<AuditEntryResponse> | undefined;
    try {
      page = await this.actions.run(req, session, async () =>
        toEnvelope(await this.audit.list(parseListQuery(query, AUDIT_LIST)), toAuditResponse),
      );
    } catch (error) {
      // A cursor edited by hand is the API's 400, on the page.
      problem = pageProblem(error, req.lang, req.id);
    }
    const next = page?.next_cursor
      ? `${hrefOf('audit')}?${new URLSearchParams({ ...(action ? { action } : {}), cursor: page.next_cursor }).toString()}`
      : undefined;
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'audit', title: t.title, view: 'console/audit', status: problem?.status },
      {
        t: { ...all, ...t },
        action: hrefOf('audit'),
        filter: action,
        problem,
        entries: (page?.data ?? []).map((e) => ({
          time: shortTime(e.created_at, req.lang, ''),
          action: e.action,
          resource: e.resource_id ?? e.resource_type,
          actor: e.token_name ?? '—',
          status: e.status,
        })),
        next,
        first: cursor
          ? action
            ? `${hrefOf('audit')}?${new URLSearchParams({ action }).toString()}`
            : hrefOf('audit')
          : undefined,
      },
    );
  }

  @Get('usage')
  @Public()
  async usagePage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'usage');
    if (!session) return;
    const all = this.pages.texts(req.lang);
    const t = all.usage;
    // As GET /v1/usage: the plan's quota with the church's override in force, and the meter's windows.
    const tenant = await this.tenants.requireBySlug(session.church.slug);
    const override =
      tenant.quotaRpm === null && tenant.quotaPerDay === null && tenant.quotaBurst === null
        ? null
        : { rpm: tenant.quotaRpm, perDay: tenant.quotaPerDay, burst: tenant.quotaBurst, until: tenant.quotaUntil };
    const quota = effectiveQuota(session.church.plan as Plan, override);
    const { day, minute } = await this.usage.read(session.tenantId);
    const number = new Intl.NumberFormat(req.lang);
    const svg = renderSvgChart({
      kind: 'bar',
      title: t.chartTitle,
      categories: [t.today],
      series: [
        { name: t.used, values: [day.requests] },
        { name: t.quota, values: [quota.perDay] },
      ],
      xLabel: t.day,
      yLabel: t.perDay,
      width: 560,
      height: 300,
    });
    const percent = quota.perDay > 0 ? Math.min(100, Math.round((day.requests / quota.perDay) * 100)) : 0;
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'usage', title: t.title, view: 'console/usage' },
      {
        t: { ...all, ...t },
        plan: session.church.plan,
        today: {
          requests: number.format(day.requests),
          bytes: number.format(day.response_bytes),
          quota: number.format(quota.perDay),
          percent,
          value: day.requests,
          max: quota.perDay,
          text: interpolate(t.todayText, {
            used: number.format(day.requests),
            quota: number.format(quota.perDay),
            percent,
          }),
        },
        minute: {
          value: minute.requests,
          max: quota.rpm,
          requests: number.format(minute.requests),
          rpm: number.format(quota.rpm),
          burst: number.format(quota.burst),
        },
        chart: {
          src: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
          alt: interpolate(t.todayText, {
            used: number.format(day.requests),
            quota: number.format(quota.perDay),
            percent,
          }),
        },
      },
    );
  }

  private async showDevices(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    problem?: PageProblem,
  ): Promise<void> {
    const all = this.pages.texts(req.lang);
    const t = all.devices;
    const list = await this.actions.run(req, session, () => this.devices.list({ limit: '250' }));
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'devices', title: t.title, view: 'console/devices', status: problem?.status },
      {
        t: { ...all, ...t },
        problem,
        notice: !problem && req.query.done === 'revoked' ? t.revoked : undefined,
        devices: list.data.map((d) => ({
          name: d.name,
          campus: d.campus?.name ?? '—',
          key: d.key_display ?? '—',
          created: shortTime(d.created_at, req.lang, ''),
          revokeAction: `${hrefOf('devices')}/${d.id}/revoke`,
          revokeLabel: interpolate(t.revokeLabel, { name: d.name }),
        })),
      },
    );
  }
}
