import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { ID_PREFIX, requirePublicId, toPublicId } from '../../common/ids/id';
import { AppValidationPipe } from '../../common/validation/app-validation.pipe';
import { ApiTokensService } from '../api-tokens/api-tokens.service';
import { CreateTokenDto } from '../api-tokens/dto/create-token.dto';
import type { CreatedTokenResponse, TokenResponse } from '../api-tokens/dto/token.response';
import { ConsoleActions, PageProblem, pageProblem } from './console-actions';
import { Fields, field, fieldList, seeOther } from './console-gate';
import { hrefOf } from './console-nav';
import { pagerLinks } from './console-pager';
import { ConsolePages } from './console-pages.renderer';
import { ConsoleQuota } from './console-quota';
import type { ConsoleSession } from './console-sessions.service';
import { tokenForm, tokenRows } from './console-tokens.view';

/** Which tokens a page manages: My account → Tokens (the user's PATs), Church → Service tokens. */
type TokenPage = 'tokens' | 'serviceTokens';

const TYPE = { tokens: 'pat', serviceTokens: 'service' } as const;
/** Tokens per page of a list ("Older" pages on). */
const TOKENS_PAGE = 50;

/**
 * The two token pages: list, new (the value shown once, on the page the POST answers with; never
 * again), revoke. Through ApiTokensService, as `/v1/auth/tokens` (POST, DELETE) is, with the DTO's
 * own validation and the route's audit entries.
 */
@Injectable()
export class ConsoleTokenPages {
  private readonly validation = new AppValidationPipe();

  constructor(
    private readonly pages: ConsolePages,
    private readonly actions: ConsoleActions,
    private readonly tokens: ApiTokensService,
    private readonly quota: ConsoleQuota,
  ) {}

  show(req: ApiRequest, res: Response, session: ConsoleSession, page: TokenPage): Promise<void> {
    return this.render(req, res, session, page, {});
  }

  async create(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    page: TokenPage,
    fields: Fields,
  ): Promise<void> {
    const sent = { name: field(fields, 'name') ?? '', scopes: fieldList(fields, 'scopes') };
    let created: CreatedTokenResponse;
    try {
      // Charged first, as the route's quota is charged before its body is validated.
      await this.quota.chargeTokenCreation(session);
      const dto = (await this.validation.transform(
        { name: sent.name, scopes: sent.scopes, type: TYPE[page] },
        { type: 'body', metatype: CreateTokenDto },
      )) as CreateTokenDto;
      created = await this.actions.run(req, session, async () => {
        const token = await this.tokens.create(dto, this.actions.principal(session, false));
        await this.actions.record(req, { action: 'tokens.create', resourceId: token.id, status: 201 });
        return token;
      });
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.render(req, res, session, page, { sent, problem, status: problem.status });
    }
    await this.render(req, res, session, page, { secret: { name: created.name, value: created.token! } });
  }

  async revoke(req: ApiRequest, res: Response, session: ConsoleSession, page: TokenPage, id: string): Promise<void> {
    try {
      await this.actions.run(req, session, async () => {
        // As the route: a malformed id is a 404 (never a 500); the entry names the token by its public id.
        const uuid = requirePublicId(ID_PREFIX.token, id, 'token');
        await this.tokens.revoke(uuid, this.actions.principal(session, page === 'tokens'));
        const resourceId = toPublicId(ID_PREFIX.token, uuid);
        await this.actions.record(req, { action: 'tokens.revoke', resourceId, status: 204 });
      });
    } catch (error) {
      const problem = pageProblem(error, req.lang, req.id);
      return this.render(req, res, session, page, { problem, status: problem.status });
    }
    seeOther(res, `${hrefOf(page)}?done=revoked`);
  }

  private async render(
    req: ApiRequest,
    res: Response,
    session: ConsoleSession,
    page: TokenPage,
    state: {
      sent?: { name?: string; scopes?: string[] };
      problem?: PageProblem;
      status?: number;
      secret?: { name: string; value: string };
    },
  ): Promise<void> {
    const t = this.pages.texts(req.lang);
    // As GET /v1/auth/tokens: newest first, keyset-paged; a cursor edited by hand is its 400, on the page.
    const cursor = req.method === 'GET' && typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    let listProblem: PageProblem | undefined;
    let list: { data: TokenResponse[]; next_cursor: string | null } = { data: [], next_cursor: null };
    try {
      list = await this.actions.run(req, session, () =>
        this.tokens.list(
          {
            type: TYPE[page],
            revoked: 'false',
            sort: '-created_at',
            limit: String(TOKENS_PAGE),
            ...(cursor ? { cursor } : {}),
          },
          this.actions.principal(session, page === 'tokens'),
        ),
      );
    } catch (error) {
      listProblem = pageProblem(error, req.lang, req.id);
    }
    const problem = state.problem ?? listProblem;
    const action = hrefOf(page);
    await this.pages.page(
      res,
      session,
      {
        lang: req.lang,
        id: page,
        title: page === 'tokens' ? t.tokens.title : t.tokens.serviceTitle,
        view: 'console/tokens',
        status: state.status ?? listProblem?.status,
        script: state.secret !== undefined,
      },
      {
        t: { ...t, ...t.tokens },
        heading: page === 'tokens' ? t.tokens.title : t.tokens.serviceTitle,
        lead: page === 'tokens' ? t.tokens.lead : t.tokens.serviceLead,
        action,
        tokens: tokenRows(list.data, req.lang, action),
        ...pagerLinks(action, {}, list.next_cursor, cursor),
        secret: state.secret,
        notice: req.method === 'GET' && req.query.done === 'revoked' ? t.tokens.revoked : undefined,
        ...tokenForm(session.role, req.lang, state.sent, problem),
      },
    );
  }
}
