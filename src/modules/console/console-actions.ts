import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { toProblem } from '../../common/errors/problem';
import type { ApiRequest } from '../../common/http/request';
import type { Language } from '../../common/i18n/language';
import { Database, TenantRun } from '../../database/database.service';
import { AuditRecorder } from '../../platform/audit/audit-recorder';
import type { Principal } from '../../platform/auth/principal';
import { ROLE_SCOPES } from '../../platform/auth/scopes';
import type { Plan } from '../../platform/tenancy/tenant.entity';
import type { ConsoleSession } from './console-sessions.service';

/** A refused action as a page shows it: the problem's title and detail, and each field's message. */
export interface PageProblem {
  status: number;
  title: string;
  detail: string;
  fields: Record<string, string>;
}

/** An AppError in the page's language (the same catalog as the API's problem answers); anything else is rethrown. */
export function pageProblem(error: unknown, lang: Language, requestId: string): PageProblem {
  if (!(error instanceof AppError)) throw error;
  const problem = toProblem(error, lang, requestId);
  const fields: Record<string, string> = {};
  // `allowed_origins[2]` and `allowed_origins` are both shown next to the allowed_origins field.
  for (const e of problem.errors ?? []) fields[e.field.replace(/[[.].*$/, '')] ??= e.message;
  // The fields' own messages say what is wrong; the API's detail ("see errors") adds nothing on a page.
  const detail = Object.keys(fields).length > 0 ? '' : problem.detail;
  return { status: problem.status, title: problem.title, detail, fields };
}

/** How a console user is named in the audit log and the change log. */
export const consoleActorName = (session: ConsoleSession) => `console: ${session.email}`;

/**
 * Runs the console's actions as the API's routes run: in one church transaction, through the
 * route's own service, with the audit entry the route writes (same action and resource), whose
 * actor is `console: <e-mail>` (the change log's actor type `console`).
 */
@Injectable()
export class ConsoleActions {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditRecorder,
  ) {}

  run<T>(req: ApiRequest, session: ConsoleSession, fn: () => Promise<T>): Promise<T> {
    return this.db.runInTenant(this.tenantRun(req, session), fn);
  }

  /**
   * As an @OutsideTransaction route (a network call: a webhook's ping or test event): no
   * transaction around `fn`; its services open short ones (`Database.transaction`) for their
   * database work, and so does the audit entry.
   */
  runOutside<T>(req: ApiRequest, session: ConsoleSession, fn: () => Promise<T>): Promise<T> {
    return this.db.runOutsideTransaction(this.tenantRun(req, session), fn);
  }

  private tenantRun(req: ApiRequest, session: ConsoleSession): TenantRun {
    const name = consoleActorName(session);
    return {
      tenantId: session.tenantId,
      actor: { kind: 'staff', userId: session.userId, name, tokenName: name },
      lang: req.lang,
      requestId: req.id,
    };
  }

  /** The audit entry of the API route the action stands for (`tokens.create`, `settings.put_cors`…), in the action's transaction. */
  record(req: ApiRequest, entry: { action: string; resourceId?: string | null; status: number }): Promise<void> {
    return this.audit.record({
      action: entry.action,
      resourceType: entry.action.split('.')[0],
      resourceId: entry.resourceId ?? null,
      status: entry.status,
      ip: req.ip ?? null,
    });
  }

  /**
   * The caller the routes' services expect, for the signed-in staff member. `own`: as their
   * personal access token would be (their own credentials only, credentialOwner = the user);
   * otherwise with every scope of their role (admin:* for an org_admin: the church's credentials).
   * No token stands behind it (tokenId ''), so what it creates records no creator token.
   */
  principal(session: ConsoleSession, own: boolean): Principal {
    const scopes = ROLE_SCOPES[session.role].filter((s) => !own || s !== 'admin:*');
    return {
      tokenId: '',
      tokenName: consoleActorName(session),
      tokenType: 'pat',
      scopes,
      userId: session.userId,
      actingUserId: session.userId,
      role: session.role,
      tenantId: session.tenantId,
      tenantSlug: session.church.slug,
      tenantPlan: session.church.plan as Plan,
      quotaOverride: null,
    };
  }
}
