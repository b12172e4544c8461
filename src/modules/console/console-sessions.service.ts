import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Database } from '../../database/database.service';
import type { Role } from '../../platform/auth/scopes';
import { hashSecret, matchesHash, newSecret, readCookie } from '../../platform/views/csrf';
import { ConsoleClock } from './console-clock';
import { ConsoleSessionsRepository } from './console-sessions.repository';

/** The browser's session cookie: `__Host-` (Secure, Path=/, no Domain), HttpOnly, SameSite=Lax. */
export const SESSION_COOKIE = '__Host-console';
/** A session ends after 30 minutes without a request, and 12 hours after sign-in whatever happens. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/** A signed-in staff member, as each console request sees them. */
export interface ConsoleSession {
  id: string;
  tenantId: string;
  userId: string;
  email: string;
  role: Role;
  church: { slug: string; name: string; plan: string };
  /** The CSRF token every form of this session carries. */
  csrf: string;
}

/**
 * The session's CSRF token, derived from the cookie's value (which only the browser holds, HttpOnly):
 * the page can print it on every form without the server storing it; the row keeps its SHA-256.
 */
function csrfOf(cookie: string): string {
  return createHash('sha256').update(`console-csrf:${cookie}`).digest('base64url');
}

/**
 * Server-side sessions of the console (table console_sessions): the cookie holds a random value,
 * the row its SHA-256. Signing out deletes the row; removing the staff member deletes their rows
 * (ON DELETE CASCADE); a role change applies on the next request (the row joins the user).
 */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    private readonly db: Database,
    private readonly repository: ConsoleSessionsRepository,
    private readonly clock: ConsoleClock,
  ) {}

  /** Starts a session for the staff member and sets its cookie (a new value: a planted one is never kept). */
  async start(res: Response, who: { tenantId: string; userId: string; requestId: string }): Promise<void> {
    const cookie = newSecret();
    const now = this.clock.now();
    await this.db.runInTenant(
      { tenantId: who.tenantId, actor: { kind: 'staff', userId: who.userId }, requestId: who.requestId },
      () =>
        this.repository.insert({
          userId: who.userId,
          cookieHash: hashSecret(cookie),
          csrfHash: hashSecret(csrfOf(cookie)),
          now,
        }),
    );
    await this.repository.deleteStale(
      new Date(now.getTime() - SESSION_IDLE_MS),
      new Date(now.getTime() - SESSION_MAX_MS),
    );
    res.append('Set-Cookie', `${SESSION_COOKIE}=${cookie}; Path=/; Secure; HttpOnly; SameSite=Lax`);
  }

  /**
   * The request's live session, or null (no cookie, unknown, ended, past its idle or absolute limit,
   * its church suspended). A live session counts as used now.
   */
  async resolve(req: Request): Promise<ConsoleSession | null> {
    const cookie = readCookie(req, SESSION_COOKIE);
    if (!cookie) return null;
    const row = await this.repository.findByCookie(hashSecret(cookie));
    if (!row) return null;
    const now = this.clock.now().getTime();
    const stale =
      now - row.last_seen_at.getTime() >= SESSION_IDLE_MS || now - row.created_at.getTime() >= SESSION_MAX_MS;
    if (stale || row.church_status !== 'active') {
      await this.repository.delete(row.tenant_id, row.id);
      return null;
    }
    const csrf = csrfOf(cookie);
    if (!matchesHash(csrf, row.csrf_hash)) return null;
    await this.repository.touch(row.tenant_id, row.id, new Date(now));
    return {
      id: row.id,
      tenantId: row.tenant_id,
      userId: row.user_id,
      email: row.email,
      role: row.role,
      church: { slug: row.church_slug, name: row.church_name, plan: row.church_plan },
      csrf,
    };
  }

  /** Ends the session at once and clears the browser's cookie. */
  async end(res: Response, session: ConsoleSession): Promise<void> {
    await this.repository.delete(session.tenantId, session.id);
    this.clearCookie(res);
  }

  clearCookie(res: Response): void {
    res.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`);
  }
}
