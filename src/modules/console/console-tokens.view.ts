import type { Language } from '../../common/i18n/language';
import { ROLE_SCOPES, Role } from '../../platform/auth/scopes';
import type { TokenResponse } from '../api-tokens/dto/token.response';
import { OAUTH_PAGE_TEXTS } from '../oauth/oauth-pages.texts';
import type { PageProblem } from './console-actions';
import { interpolate } from '../../common/i18n/language';
import { CONSOLE_TEXTS } from './console.texts';

/** A date as the page's language writes it (day, month, year). */
export function shortDate(iso: string | null | undefined, lang: Language, never: string): string {
  return iso ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso)) : never;
}

/** The rows of a token list. */
export function tokenRows(tokens: TokenResponse[], lang: Language, revokeBase: string) {
  const t = CONSOLE_TEXTS[lang].tokens;
  return tokens.map((tok) => ({
    name: tok.name,
    hint: tok.display,
    scopes: tok.scopes.join(', '),
    created: shortDate(tok.created_at, lang, t.never),
    expires: shortDate(tok.expires_at, lang, t.never),
    lastUsed: shortDate(tok.last_used_at, lang, t.never),
    revokeAction: `${revokeBase}/${tok.id}/revoke`,
    revokeLabel: interpolate(t.revokeLabel, { name: tok.name }),
  }));
}

/** The new-token form: its name, the scopes the role may hold (checked as sent), the problems by field. */
export function tokenForm(
  role: Role,
  lang: Language,
  sent: { name?: string; scopes?: string[] } = {},
  problem?: PageProblem,
) {
  const words = OAUTH_PAGE_TEXTS[lang].scopes;
  return {
    form: {
      name: sent.name ?? '',
      scopes: ROLE_SCOPES[role].map((scope) => ({
        value: scope,
        title: words[scope]?.title ?? scope,
        detail: words[scope]?.detail ?? '',
        checked: sent.scopes?.includes(scope) ?? false,
      })),
    },
    errors: problem?.fields ?? {},
    problem,
  };
}
