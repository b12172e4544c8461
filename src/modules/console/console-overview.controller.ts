import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { renderSvgChart } from '../../common/charts/svg-chart';
import type { ApiRequest } from '../../common/http/request';
import { interpolate } from '../../common/i18n/language';
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
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import { dayStart } from './console-days';
import { pagerLinks } from './console-pager';
import { ConsoleGate } from './console-gate';
import { hrefOf } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import { dayUsage, USAGE_BAR_WIDTH } from './console-usage.view';
import { shortTime } from './console-webhooks.view';

const AUDIT_PAGE = 50;

/**
 * Audit log (org_admin: newest first, paged, filtered) and Usage (every role: today's requests
 * against the plan), each through the service of its API route (`/v1/audit-log`, `/v1/usage`).
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleOverviewController {
  constructor(
    private readonly gate: ConsoleGate,
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly audit: AuditLogService,
    private readonly usage: UsageMeter,
    private readonly tenants: TenantsService,
  ) {}

  @Get('audit-log')
  @Public()
  async auditPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'audit');
    if (!session) return;
    const all = this.pages.texts(req.lang);
    const t = all.audit;
    // The filters as the page's query: each one an API filter of GET /v1/audit-log.
    const text = (name: string) => (typeof req.query[name] === 'string' ? req.query[name].trim() : '');
    const filters = { action: text('action'), token: text('token'), from: text('from'), to: text('to') };
    const cursor = text('cursor') || undefined;
    const query: Record<string, unknown> = { limit: String(AUDIT_PAGE), sort: '-created_at' };
    if (filters.action) query.action = filters.action;
    if (filters.token) query.token_id = filters.token;
    // Days (UTC), both included: [start of from, start of the day after to).
    if (filters.from) query['created_at[gte]'] = dayStart(filters.from, 0);
    if (filters.to) query['created_at[lt]'] = dayStart(filters.to, 1);
    if (cursor) query.cursor = cursor;
    let problem: PageProblem | undefined;
    let page: ListEnvelope<AuditEntryResponse> | undefined;
    try {
      page = await this.actions.run(req, session, async () =>
        toEnvelope(await this.audit.list(parseListQuery(query, AUDIT_LIST)), toAuditResponse),
      );
    } catch (error) {
      // A cursor edited by hand or a day that is no date is the API's 400, on the page.
      problem = pageProblem(error, req.lang, req.id);
    }
    const kept = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));
    const byToken = (token: string) => `${hrefOf('audit')}?${new URLSearchParams({ ...kept, token }).toString()}`;
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'audit', title: t.title, view: 'console/audit', status: problem?.status },
      {
        t: { ...all, ...t },
        action: hrefOf('audit'),
        filters,
        filtered: Object.keys(kept).length > 0,
        clear: hrefOf('audit'),
        problem,
        entries: (page?.data ?? []).map((e) => ({
          time: shortTime(e.created_at, req.lang, ''),
          action: e.action,
          resource: e.resource_id ?? e.resource_type,
          actor: e.token_name ?? '—',
          // The token's entries only: a link that filters by it.
          actorHref: e.token_id ? byToken(e.token_id) : undefined,
          actorLabel: interpolate(t.byTokenLabel, { name: e.token_name ?? e.token_id ?? '' }),
          status: e.status,
        })),
        ...pagerLinks(hrefOf('audit'), kept, page?.next_cursor, cursor),
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
    const today = dayUsage(day.requests, quota.perDay, req.lang);
    const svg = today.drawn
      ? renderSvgChart({
          kind: 'bar',
          title: t.chartTitle,
          categories: [t.today],
          series: [
            { name: t.used, values: [day.requests] },
            { name: t.quota, values: [quota.perDay] },
          ],
          xLabel: t.day,
          yLabel: t.perDay,
          width: USAGE_BAR_WIDTH,
          height: 300,
        })
      : undefined;
    await this.pages.page(
      res,
      session,
      { lang: req.lang, id: 'usage', title: t.title, view: 'console/usage' },
      {
        t: { ...all, ...t },
        plan: session.church.plan,
        today: {
          ...today,
          requests: number.format(day.requests),
          bytes: number.format(day.response_bytes),
          value: day.requests,
          max: quota.perDay,
        },
        minute: {
          value: minute.requests,
          max: quota.rpm,
          requests: number.format(minute.requests),
          rpm: number.format(quota.rpm),
          burst: number.format(quota.burst),
        },
        chart: svg && { src: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, alt: today.text },
      },
    );
  }
}
