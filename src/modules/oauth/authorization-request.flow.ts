import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { ApiRequest, FormBody } from '../../common/http/request';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import { browserBinding, matchesHash, readCookie } from '../../platform/views/csrf';
import { setPageHeaders } from '../../platform/views/page-headers';
import { checkAuthorizeQuery, RedirectError, redirectWith } from './authorization-request.params';
import { AuthorizationRequestsService, PendingAuthorization, RequestKeys } from './authorization-requests.service';
import { AuthorizeClient, OAuthClientsService } from './oauth-clients.service';
import { OAuthCodesService } from './oauth-codes.service';
import { issuerOf } from './oauth-issuer';
import { OAuthPages, PageParties } from './oauth-pages.renderer';
import type { PageErrorKind } from './oauth-pages.texts';
import { grantableScopes } from './oauth-scopes';
import { OAuthRepository } from './oauth.repository';
import { SignInCredentials } from './sign-in-credentials';
import { SignInThrottle } from './sign-in-throttle';

/**
 * The cookie that binds a pending request to the browser that started it. `__Host-`: the browser
 * keeps it only if it is Secure, for Path=/ and without Domain, so no subdomain can plant one.
 */
export const BROWSER_COOKIE = '__Host-oauth_browser';

type Fields = FormBody['fields'];

/** A form field sent once as text. */
function field(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

/** A pending request whose form passed the CSRF and browser checks, with its client as it is now. */
interface Checked {
  pending: PendingAuthorization;
  found: AuthorizeClient;
  keys: RequestKeys;
  parties: PageParties;
  formTargets: string[];
}

const originOf = (uri: string) => new URL(uri).origin;

/**
 * The browser side of the authorization code flow (CONTRACT §14): `GET /v1/oauth/authorize`
 * checks the request and shows the sign-in page, the sign-in form shows the consent page, and
 * the consent form ends at the client's redirect_uri with a code or `access_denied`.
 */
@Injectable()
export class AuthorizeFlow {
  constructor(
    private readonly db: Database,
    private readonly clients: OAuthClientsService,
    private readonly codes: OAuthCodesService,
    private readonly requests: AuthorizationRequestsService,
    private readonly credentials: SignInCredentials,
    private readonly throttle: SignInThrottle,
    private readonly pages: OAuthPages,
    private readonly repository: OAuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(req: ApiRequest, res: Response): Promise<void> {
    const check = await checkAuthorizeQuery(req.query, (id) => this.clients.findForAuthorize(id));
    if (check.kind === 'page') {
      const parties = check.found ? this.partiesOf(check.found) : undefined;
      return this.pages.error(res, { lang: req.lang, kind: check.error, requestId: req.id, parties });
    }
    const iss = issuerOf(req, this.config);
    if (check.kind === 'redirect') {
      const { error, description } = check.failure;
      return this.redirect(
        res,
        302,
        redirectWith(check.redirectUri, { error, error_description: description, state: check.state, iss }),
      );
    }
    const { found, request } = check;
    const browser = browserBinding(req, res, BROWSER_COOKIE);
    const keys = await this.db.runInTenant(
      { tenantId: found.tenant.id, actor: { kind: 'staff' }, lang: req.lang, requestId: req.id },
      () => this.requests.create({ clientId: found.client.id, browser, request }),
    );
    await this.pages.signIn(res, {
      lang: req.lang,
      ...this.partiesOf(found),
      keys,
      formTargets: [originOf(request.redirectUri)],
    });
  }

  async signIn(req: ApiRequest, res: Response): Promise<void> {
    const checked = await this.check(req, res);
    if (!checked) return;
    const { pending, found, keys, parties, formTargets } = checked;
    const fields = req.form!.fields;
    const email = field(fields, 'email')?.trim() ?? '';
    const password = field(fields, 'password') ?? '';
    const page = { lang: req.lang, ...parties, keys, formTargets, email: email.slice(0, 320) };
    if (!email || !password) return this.pages.signIn(res, { ...page, status: 400, error: 'missing' });

    const address = req.ip ?? 'unknown';
    const wait = await this.throttle.retryAfter(found.tenant.id, email, address);
    if (wait > 0) return this.pages.signIn(res, { ...page, status: 429, error: { throttledSeconds: wait } });
    const staff = await this.credentials.verify(found.tenant.id, email, password);
    if (!staff) {
      await this.throttle.recordFailure(found.tenant.id, email, address);
      return this.pages.signIn(res, { ...page, status: 400, error: 'wrong' });
    }
    await this.throttle.clearAccount(found.tenant.id, email);

    const granted = grantableScopes(pending.scopes, found.client.scopes, staff.role);
    await this.db.runInTenant(
      { tenantId: found.tenant.id, actor: { kind: 'staff', userId: staff.id }, lang: req.lang, requestId: req.id },
      () => this.requests.signedIn(pending.id, staff.id, granted),
    );
    await this.pages.consent(res, {
      lang: req.lang,
      ...parties,
      keys,
      formTargets,
      email: staff.email,
      role: staff.role,
      scopes: granted,
      redirectUri: pending.redirectUri,
    });
  }

  async decide(req: ApiRequest, res: Response): Promise<void> {
    const checked = await this.check(req, res);
    if (!checked) return;
    const { pending, found, parties, formTargets } = checked;
    const decision = field(req.form!.fields, 'decision');
    const userId = pending.userId;
    if (!userId)
      return this.pages.error(res, {
        lang: req.lang,
        kind: 'request_invalid',
        requestId: req.id,
        parties,
        formTargets,
      });
    if (decision !== 'allow' && decision !== 'deny')
      return this.pages.error(res, { lang: req.lang, kind: 'form_invalid', requestId: req.id, parties, formTargets });

    const outcome = await this.db.runInTenant(
      { tenantId: found.tenant.id, actor: { kind: 'staff', userId }, lang: req.lang, requestId: req.id },
      () => this.conclude(pending, found, userId, decision),
    );
    if (!outcome) return this.pages.error(res, { lang: req.lang, kind: 'request_invalid', requestId: req.id, parties });
    const iss = issuerOf(req, this.config);
    const params =
      'code' in outcome ? { code: outcome.code } : { error: outcome.error, error_description: outcome.description };
    this.redirect(res, 303, redirectWith(pending.redirectUri, { ...params, state: pending.state, iss }));
  }

  /**
   * Inside the church's transaction: ends the request (once) and, on Allow, issues the code for
   * the scopes the consent page showed that the staff member's role and the client still allow.
   */
  private async conclude(
    pending: PendingAuthorization,
    found: AuthorizeClient,
    userId: string,
    decision: 'allow' | 'deny',
  ): Promise<{ code: string } | RedirectError | null> {
    if (!(await this.requests.finish(pending.id))) return null;
    if (decision === 'deny') return { error: 'access_denied', description: 'the staff member denied the request' };
    const role = await this.repository.userRole(userId);
    if (!role) return { error: 'access_denied', description: 'the staff member who signed in no longer exists' };
    const allowed = grantableScopes(pending.scopes, found.client.scopes, role);
    const scopes = (pending.grantedScopes ?? []).filter((s) => allowed.includes(s));
    if (scopes.length === 0)
      return {
        error: 'invalid_scope',
        description: "the staff member's role holds none of the requested scopes that the client may have",
      };
    const code = await this.codes.issue({
      clientId: found.client.id,
      userId,
      scopes,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
    });
    return { code };
  }

  /**
   * What every form of the pages checks first: a readable form, a CSRF token, a known request,
   * the token and the browser cookie of that request, then that it is still pending and its client,
   * church and redirect_uri still stand. Answers the error page itself and returns null on failure.
   */
  private async check(req: ApiRequest, res: Response): Promise<Checked | null> {
    const fail = async (
      kind: PageErrorKind,
      more: { parties?: PageParties; back?: string; formTargets?: string[] } = {},
    ) => {
      await this.pages.error(res, { lang: req.lang, kind, requestId: req.id, ...more });
      return null;
    };
    const form = req.form ?? { fields: typeof req.body === 'object' && req.body ? (req.body as Fields) : {} };
    if (form.error)
      return fail(
        form.error === 'media_type'
          ? 'form_media_type'
          : form.error === 'too_large'
            ? 'form_too_large'
            : 'form_invalid',
      );
    req.form = form;
    const csrf = field(form.fields, 'csrf');
    if (!csrf) return fail('csrf');
    const pending = await this.requests.find(field(form.fields, 'request'));
    if (!pending) return fail('request_invalid');
    const found = await this.clients.findForAuthorize(toPublicId(ID_PREFIX.oauthClient, pending.clientId));
    const parties = found ? this.partiesOf(found) : undefined;
    const trusted = found?.client.redirectUris.includes(pending.redirectUri) ?? false;
    const formTargets = trusted ? [originOf(pending.redirectUri)] : [];
    const back = trusted
      ? redirectWith(pending.redirectUri, {
          error: 'access_denied',
          error_description: 'the authorization request was not completed',
          state: pending.state,
          iss: issuerOf(req, this.config),
        })
      : undefined;
    if (!matchesHash(csrf, pending.csrfHash) || !matchesHash(readCookie(req, BROWSER_COOKIE), pending.browserHash))
      return fail('csrf', { parties, back, formTargets });
    if (pending.finished) return fail('request_invalid', { parties, formTargets });
    if (pending.expired) return fail('request_invalid', { parties, back, formTargets });
    if (!found) return fail('unknown_client');
    if (!trusted) return fail('invalid_redirect', { parties });
    if (found.tenant.status !== 'active') return fail('church_inactive', { parties });
    return {
      pending,
      found,
      keys: { request: field(form.fields, 'request')!, csrf },
      parties: this.partiesOf(found),
      formTargets,
    };
  }

  private partiesOf(found: AuthorizeClient): PageParties {
    return { church: found.tenant.name, app: found.client.name };
  }

  private redirect(res: Response, status: 302 | 303, location: string): void {
    setPageHeaders(res);
    res.status(status).setHeader('Location', location);
    res.end();
  }
}
