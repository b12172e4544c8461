import { createHash, randomBytes } from 'node:crypto';
import type { Role, Scope } from '../../src/platform/auth/scopes';
import { OAuthClientsService } from '../../src/modules/oauth/oauth-clients.service';
import { UsersService } from '../../src/platform/users/users.service';
import type { TestApi } from './api';
import { inTenant, TestTenant } from './factories';

/** A PKCE pair (RFC 7636, S256): a 43-character verifier and its challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An OAuth client of the church, registered through the service the API and the CLI use. */
export async function newOAuthClient(
  api: TestApi,
  tenant: TestTenant,
  options: { name?: string; redirectUris: string[]; scopes?: Scope[]; type?: 'public' | 'confidential' },
): Promise<{ clientId: string; clientSecret?: string }> {
  const created = await inTenant(api, tenant.id, () =>
    api.app.get(OAuthClientsService).create(
      {
        name: options.name ?? 'Check-in App',
        redirectUris: options.redirectUris,
        scopes: options.scopes,
        type: options.type ?? 'public',
      },
      tenant.admin.id,
    ),
  );
  return { clientId: created.client_id, clientSecret: created.client_secret ?? undefined };
}

/** A staff member with a password (what `user:create` makes), to sign in on the pages. */
export async function newStaff(
  api: TestApi,
  tenant: TestTenant,
  role: Role = 'staff',
  password = 'correct horse battery staple',
) {
  const email = `${role}-${randomBytes(6).toString('hex')}@example.org`;
  const user = await inTenant(api, tenant.id, () =>
    api.app.get(UsersService).create({ email, role, password, name: 'Ana Staff' }),
  );
  return { id: user.id, email, password, role };
}

/** `/v1/oauth/authorize?…` from the parameters given (undefined ones left out). */
export function authorizePath(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  return `/v1/oauth/authorize?${query.toString()}`;
}

/** The hidden fields of a page's form (the pending request's handle and the CSRF token). */
export function hiddenFields(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );
}

/** The value of the `name` cookie a response set (its Set-Cookie), or undefined. */
export function cookieFrom(setCookie: string[] | string | undefined, name: string): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${name}=`));
}

/** A form body as application/x-www-form-urlencoded. */
export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}
