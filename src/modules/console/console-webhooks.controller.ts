import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { interpolate } from '../../common/i18n/language';
import { ID_PREFIX, requirePublicId } from '../../common/ids/id';
import { AppValidationPipe } from '../../common/validation/app-validation.pipe';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import { Public } from '../../platform/auth/auth.decorator';
import { EVENT_TYPES, EventType } from '../../platform/outbox/event-types';
import { assertWebhookUrl } from '../../platform/outbox/url-guard';
import { CreateEndpointDto } from '../webhook-endpoints/dto/create-endpoint.dto';
import { BackfillDto, TestEventDto } from '../webhook-endpoints/dto/endpoint.response';
import type { AttemptResponse, EndpointResponse } from '../webhook-endpoints/dto/endpoint.response';
import type { ListEnvelope } from '../../common/lists/list-envelope';
import { UpdateEndpointDto } from '../webhook-endpoints/dto/update-endpoint.dto';
import { WebhookEndpointsService } from '../webhook-endpoints/webhook-endpoints.service';
import { WebhookEventsService } from '../webhook-endpoints/webhook-events.service';
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import {
  endpointBody,
  EndpointForm,
  endpointFormOf,
  endpointFormView,
  readEndpointForm,
} from './console-endpoint-form';
import { dayStart } from './console-days';
import { ConsoleGate, field, seeOther } from './console-gate';
import { hrefOf } from './console-nav';
import { ConsolePages } from './console-pages.renderer';
import type { ConsoleSession } from './console-sessions.service';
import { deliveriesChart, endpointRows, shortTime, stateOf } from './console-webhooks.view';

/** Attempts per page of an endpoint's page (the "Older" link pages on, as GET …/deliveries does). */
const ATTEMPTS_PAGE = 50;

/** What an endpoint page shows after one of its actions, besides the endpoint itself. */
interface EndpointState {
  status?: number;
  problem?: PageProblem;
  /** The form the problem belongs to: its fields are shown there. */
  form?: 'backfill' | 'test' | 'resend' | 'edit';
  sent?: Record<string, string>;
  /** The edit form as sent, when it was refused. */
  edit?: EndpointForm;
  notice?: string;
  secret?: string;
  result?: { label: string; ok: boolean; text: string };
}

/**
 * API → Webhooks (CONTRACT §20): the church's endpoints with their health, a new one (its `whsec_`
 * secret shown once), and an endpoint's page: settings, health, the last 7 days of deliveries, its
 * attempts, and the API's actions (resend, backfill, roll secret, validate, test event, enable and
 * disable, delete), each through the service and audit entry of its `/v1/webhook-*` route.
 * admin:* routes there, so org_admin only here.
 */
@ApiExcludeController()
@Controller('console/api/webhooks')
export class ConsoleWebhooksController {
  private readonly validation = new AppValidationPipe();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gate: ConsoleGate,
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly endpoints: WebhookEndpointsService,
    private readonly events: WebhookEventsService,
    private readonly db: Database,
  ) {}

  @Get()
  @Public()
  async listPage(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'webhooks');
    if (session) await this.showList(req, res, session, {});
  }

  @Post()
  @HttpCode(200)
  @Public()
  async create(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    const { session, fields } = checked;
    const sent = readEndpointForm(fields);
    let created: { id: string; url: string; secret: string | null };
    try {
      // As the route: its WebhookUrlGuard first (the URL's DNS lookup, before any transaction), then the DTO.
      await assertWebhookUrl(sent.url, this.config.WEBHOOK_ALLOW_LOOPBACK);
      const dto = (await this.validation.transform(endpointBody(sent), {
        type: 'body',
        metatype: CreateEndpointDto,
      })) as CreateEndpointDto;
      created = await this.actions.run(req, session, async () => {
        const endpoint = await this.endpoints.create(dto);
        await this.actions.record(req, { action: 'endpoints.create', resourceId: endpoint.id, status: 201 });
        return endpoint;
      });
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showList(req, res, session, { sent, problem, status: problem.status });
    }
    await this.showList(req, res, session, {
      secret: { name: created.url, value: created.secret!, href: `${hrefOf('webhooks')}/${created.id}` },
    });
  }

  @Get(':id')
  @Public()
  async endpointPage(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.gate.page(req, res, 'webhooks');
    if (!session) return;
    const t = this.pages.texts(req.lang).webhooks;
    const done = req.query.done;
    const notice =
      done === 'enabled'
        ? t.enabled
        : done === 'disabled'
          ? t.disabledNotice
          : done === 'resent'
            ? t.resent
            : done === 'saved'
              ? t.saved
              : undefined;
    await this.showEndpoint(req, res, session, id, { notice });
  }

  /** As PATCH /v1/webhook-endpoints/{id} with the url, events, filters and description: its URL guard, DTO, service and audit entry. */
  @Post(':id/edit')
  @HttpCode(303)
  @Public()
  async edit(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    const sent = readEndpointForm(checked.fields);
    try {
      await assertWebhookUrl(sent.url, this.config.WEBHOOK_ALLOW_LOOPBACK);
      const dto = (await this.validation.transform(endpointBody(sent), {
        type: 'body',
        metatype: UpdateEndpointDto,
      })) as UpdateEndpointDto;
      await this.inTransaction(req, checked.session, id, 'endpoints.update', 200, (uuid) =>
        this.endpoints.update(uuid, dto),
      );
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, {
        problem,
        status: problem.status,
        form: 'edit',
        edit: sent,
      });
    }
    seeOther(res, `${hrefOf('webhooks')}/${id}?done=saved`);
  }

  @Post(':id/status')
  @HttpCode(303)
  @Public()
  async setStatus(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    const status = field(checked.fields, 'status');
    try {
      const dto = (await this.validation.transform(
        { status },
        { type: 'body', metatype: UpdateEndpointDto },
      )) as UpdateEndpointDto;
      await this.inTransaction(req, checked.session, id, 'endpoints.update', 200, (uuid) =>
        this.endpoints.update(uuid, dto),
      );
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, { problem, status: problem.status });
    }
    seeOther(res, `${hrefOf('webhooks')}/${id}?done=${status}`);
  }

  @Post(':id/delete')
  @HttpCode(303)
  @Public()
  async remove(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    try {
      await this.inTransaction(req, checked.session, id, 'endpoints.remove', 204, (uuid) =>
        this.endpoints.remove(uuid),
      );
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, { problem, status: problem.status });
    }
    seeOther(res, `${hrefOf('webhooks')}?done=deleted`);
  }

  @Post(':id/roll-secret')
  @HttpCode(200)
  @Public()
  async rollSecret(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    let secret: string;
    try {
      ({ secret } = await this.inTransaction(req, checked.session, id, 'endpoints.roll_secret', 200, (uuid) =>
        this.endpoints.rollSecret(uuid),
      ));
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, { problem, status: problem.status });
    }
    await this.showEndpoint(req, res, checked.session, id, { secret });
  }

  @Post(':id/backfill')
  @HttpCode(200)
  @Public()
  async backfill(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    const t = this.pages.texts(req.lang).webhooks;
    const sent = {
      type: field(checked.fields, 'type') ?? '',
      from: field(checked.fields, 'from') ?? '',
      to: field(checked.fields, 'to') ?? '',
    };
    let enqueued: number;
    try {
      // The form's dates are days (UTC): from the start of `from` to the end of `to`, as [from, to).
      const dto = (await this.validation.transform(
        { type: sent.type, from: dayStart(sent.from, 0), to: dayStart(sent.to, 1) },
        { type: 'body', metatype: BackfillDto },
      )) as BackfillDto;
      ({ enqueued } = await this.inTransaction(req, checked.session, id, 'endpoints.backfill', 202, (uuid) =>
        this.endpoints.backfill(uuid, dto),
      ));
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, {
        problem,
        status: problem.status,
        form: 'backfill',
        sent,
      });
    }
    await this.showEndpoint(req, res, checked.session, id, { notice: interpolate(t.backfilled, { count: enqueued }) });
  }

  @Post(':id/resend')
  @HttpCode(303)
  @Public()
  async resend(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    try {
      await this.actions.run(req, checked.session, async () => {
        // As POST /v1/webhook-events/{id}/resend with {"endpoint_id"}: an unknown event or endpoint is a 404.
        const eventId = requirePublicId(ID_PREFIX.event, field(checked.fields, 'event_id'), 'event');
        const resent = await this.events.resend(eventId, id);
        await this.actions.record(req, {
          action: 'webhook_events.resend',
          resourceId: field(checked.fields, 'event_id'),
          status: 202,
        });
        return resent;
      });
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, { problem, status: problem.status, form: 'resend' });
    }
    seeOther(res, `${hrefOf('webhooks')}/${id}?done=resent`);
  }

  /** The receiver's ping, as POST /v1/webhook-endpoints/{id}/validate: outside the transaction (a network call). */
  @Post(':id/validate')
  @HttpCode(200)
  @Public()
  async validate(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    const t = this.pages.texts(req.lang).webhooks;
    try {
      const result = await this.outside(req, checked.session, id, 'endpoints.validate', (uuid) =>
        this.endpoints.validate(uuid),
      );
      const text = attemptText(result, t);
      await this.showEndpoint(req, res, checked.session, id, {
        result: { label: t.validateResult, ok: result.ok, text: `${result.url} · ${text}` },
      });
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, { problem, status: problem.status });
    }
  }

  /** A signed sample event, as POST /v1/webhook-endpoints/{id}/test: outside the transaction (a network call). */
  @Post(':id/test')
  @HttpCode(200)
  @Public()
  async sendTest(@Param('id') id: string, @Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const checked = await this.gate.form(req, res, 'webhooks');
    if (!checked) return;
    const t = this.pages.texts(req.lang).webhooks;
    const sent = { type: field(checked.fields, 'type') ?? '' };
    try {
      const dto = (await this.validation.transform(sent, { type: 'body', metatype: TestEventDto })) as TestEventDto;
      const result = await this.outside(req, checked.session, id, 'endpoints.send_test', (uuid) =>
        this.endpoints.sendTest(uuid, dto.type as EventType),
      );
      const ok = result.error === null;
      await this.showEndpoint(req, res, checked.session, id, {
        sent,
        result: { label: interpolate(t.testResult, { type: dto.type }), ok, text: attemptText({ ...result, ok }, t) },
      });
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.showEndpoint(req, res, checked.session, id, { problem, status: problem.status, form: 'test', sent });
    }
  }

  /** The action in one church transaction with its route's audit entry (the endpoint named by its public id). */
  private inTransaction<T>(
    req: ApiRequest,
    session: ConsoleSession,
    id: string,
    action: string,
    status: number,
    fn: (uuid: string) => Promise<T>,
  ): Promise<T> {
    return this.actions.run(req, session, async () => {
      // As the routes' ParseIdPipe: a malformed id is the API's 404, never a 500.
      const uuid = requirePublicId(ID_PREFIX.webhookEndpoint, id, 'webhook endpoint');
      const out = await fn(uuid);
      await this.actions.record(req, { action, resourceId: id, status });
      return out;
    });
  }

  /** As an @OutsideTransaction route: no transaction around the call; the audit entry in a short one of its own. */
  private async outside<T>(
    req: ApiRequest,
    session: ConsoleSession,
    id: string,
    action: string,
    fn: (uuid: string) => Promise<T>,
  ): Promise<T> {
    return this.actions.runOutside(req, session, async () => {
      const uuid = requirePublicId(ID_PREFIX.webhookEndpoint, id, 'webhook endpoint');
      const out = await fn(uuid);
      await this.db.transaction(() => this.actions.record(req, { action, resourceId: id, status: 200 }));
      return out;
    });
  }

  private async showList(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    state: {
      sent?: EndpointForm;
      problem?: PageProblem;
      status?: number;
      secret?: { name: string; value: string; href: string };
    },
  ): Promise<void> {
    const all = this.pages.texts(req.lang);
    const t = all.webhooks;
    const list = await this.actions.run(req, session, () => this.endpoints.list({ limit: '250' }));
    await this.pages.page(
      res,
      session,
      {
        lang: req.lang,
        id: 'webhooks',
        title: t.title,
        view: 'console/webhooks',
        status: state.status,
        script: state.secret !== undefined,
      },
      {
        t: { ...all, ...all.tokens, ...t },
        action: hrefOf('webhooks'),
        endpoints: endpointRows(list.data, req.lang),
        secret: state.secret,
        notice: req.method === 'GET' && req.query.done === 'deleted' ? t.deleted : undefined,
        form: endpointFormView(state.sent ?? { url: '', description: '', events: [], filters: [] }),
        problem: state.problem,
        errors: state.problem?.fields ?? {},
      },
    );
  }

  private async showEndpoint(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    id: string,
    state: EndpointState,
  ): Promise<void> {
    const all = this.pages.texts(req.lang);
    const t = all.webhooks;
    const since = new Date(Date.now() - 6 * 86_400_000);
    since.setUTCHours(0, 0, 0, 0);
    const cursor = req.method === 'GET' && typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    let found: {
      endpoint: EndpointResponse;
      week: { day: string; succeeded: number; failed: number }[];
      attempts?: ListEnvelope<AttemptResponse>;
      cursorProblem?: PageProblem;
    };
    try {
      found = await this.actions.run(req, session, async () => {
        const uuid = requirePublicId(ID_PREFIX.webhookEndpoint, id, 'webhook endpoint');
        const endpoint = await this.endpoints.get(uuid);
        const week = await this.endpoints.dailyAttemptCounts(uuid, since);
        try {
          // As GET …/{id}/deliveries: newest first, keyset-paged; a cursor edited by hand is its 400.
          const query = { limit: String(ATTEMPTS_PAGE), ...(cursor ? { cursor } : {}) };
          return { endpoint, week, attempts: await this.endpoints.attempts(uuid, query) };
        } catch (error) {
          return { endpoint, week, cursorProblem: pageProblem(error, req.lang, req.id) };
        }
      });
    } catch (error) {
      // The endpoint is gone or never was: the API's 404, as a page.
      pageProblem(error, req.lang, req.id);
      return this.pages.error(res, { lang: req.lang, kind: 'notFound', requestId: req.id, session });
    }
    const { endpoint } = found;
    const base = `${hrefOf('webhooks')}/${endpoint.id}`;
    const problem = state.problem ?? found.cursorProblem;
    const errors = state.form ? (problem?.fields ?? {}) : {};
    await this.pages.page(
      res,
      session,
      {
        lang: req.lang,
        id: 'webhooks',
        title: endpoint.url,
        view: 'console/webhook',
        status: state.status ?? found.cursorProblem?.status,
        script: state.secret !== undefined,
      },
      {
        t: { ...all, ...all.tokens, ...t },
        back: hrefOf('webhooks'),
        base,
        endpoint: {
          id: endpoint.id,
          url: endpoint.url,
          description: endpoint.description,
          events: endpoint.events.join(', '),
          enabled: endpoint.status === 'enabled',
          disabledReason: endpoint.disabled_reason,
          created: shortTime(endpoint.created_at, req.lang, t.never),
        },
        health: stateOf(endpoint, req.lang),
        chart: deliveriesChart(found.week, since, req.lang),
        attempts: (found.attempts?.data ?? []).map((a) => ({
          event: a.event_id,
          attempt: a.attempt,
          status: a.status_code ?? '—',
          duration: interpolate(t.ms, { ms: a.duration_ms }),
          error: a.error ?? '—',
          ok: a.succeeded,
          time: shortTime(a.created_at, req.lang, t.never),
          resendLabel: interpolate(t.resendLabel, { event: a.event_id }),
        })),
        older: found.attempts?.next_cursor
          ? `${base}?${new URLSearchParams({ cursor: found.attempts.next_cursor }).toString()}#attempts-heading`
          : undefined,
        newest: cursor ? `${base}#attempts-heading` : undefined,
        secret: state.secret ? { name: endpoint.url, value: state.secret, href: base } : undefined,
        notice: state.notice,
        result: state.result,
        problem,
        errors,
        problemAbove: problem && !state.form,
        form: endpointFormView(state.form === 'edit' && state.edit ? state.edit : endpointFormOf(endpoint)),
        editProblem: state.form === 'edit' ? problem : undefined,
        types: EVENT_TYPES.map((type) => ({
          value: type,
          testSelected: type === (state.form === 'test' || state.result ? state.sent?.type : endpoint.events[0]),
          backfillSelected: state.form === 'backfill' && type === state.sent?.type,
        })),
        backfill: state.form === 'backfill' ? state.sent : { from: '', to: '' },
        testProblem: state.form === 'test' ? problem : undefined,
        backfillProblem: state.form === 'backfill' ? problem : undefined,
      },
    );
  }
}

function attemptText(
  result: { ok: boolean; status_code: number | null; duration_ms: number; error: string | null },
  t: { answered: string; failed: string },
): string {
  return interpolate(result.ok ? t.answered : t.failed, {
    status: result.status_code ?? '—',
    ms: result.duration_ms,
    error: result.error ?? '',
  });
}
