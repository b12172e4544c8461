import { hasScope, ROLE_SCOPES, Role, Scope } from '../../platform/auth/scopes';
import type { ConsoleTexts } from './console.texts';

export type ConsolePageId = 'tokens' | 'apps' | 'serviceTokens' | 'cors' | 'webhooks' | 'devices' | 'audit' | 'usage';

interface NavItem {
  page: ConsolePageId;
  href: string;
  /** The scope the page's API routes need; a role that may not hold it gets the 403 page. */
  needs?: Scope;
}

/**
 * The console's sections and pages, in the order of the navigation (CONTRACT §20). The pages still
 * Devices, Audit log and Usage sit under Church (Usage for every role, as GET /v1/usage).
 */
export const CONSOLE_NAV: { section: keyof ConsoleTexts['nav']; items: NavItem[] }[] = [
  {
    section: 'account',
    items: [
      { page: 'tokens', href: '/console/account/tokens' },
      { page: 'apps', href: '/console/account/apps' },
    ],
  },
  {
    section: 'church',
    items: [
      { page: 'serviceTokens', href: '/console/church/service-tokens', needs: 'admin:*' },
      { page: 'devices', href: '/console/devices', needs: 'admin:*' },
      { page: 'audit', href: '/console/audit-log', needs: 'admin:*' },
      // GET /v1/usage needs no scope: every role sees the church's usage.
      { page: 'usage', href: '/console/usage' },
    ],
  },
  {
    section: 'api',
    items: [
      { page: 'cors', href: '/console/api/cors', needs: 'admin:*' },
      { page: 'webhooks', href: '/console/api/webhooks', needs: 'admin:*' },
    ],
  },
];

export const HOME = CONSOLE_NAV[0].items[0].href;

const ITEMS = new Map(CONSOLE_NAV.flatMap((s) => s.items.map((i) => [i.page, i] as const)));

export function hrefOf(page: ConsolePageId): string {
  return ITEMS.get(page)!.href;
}

/** Whether the role may use the page: it may hold the scope the page's API routes need. */
export function mayUse(role: Role, page: ConsolePageId): boolean {
  const needs = ITEMS.get(page)?.needs;
  return !needs || hasScope(ROLE_SCOPES[role], needs);
}

/** The navigation a role sees: its pages only, the current one marked. */
export function navFor(role: Role, current: ConsolePageId | undefined, t: ConsoleTexts['nav']) {
  return CONSOLE_NAV.map((s) => ({
    label: t[s.section],
    items: s.items
      .filter((i) => mayUse(role, i.page))
      .map((i) => ({ href: i.href, label: t[i.page], current: i.page === current })),
  })).filter((s) => s.items.length > 0);
}
