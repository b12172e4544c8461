/** Scopes a token may carry (specification §Authentication 5, CONTRACT §5). */
export const SCOPES = [
  'read:members',
  'write:members',
  'read:donations',
  'write:donations',
  'read:attendance',
  'write:attendance',
  'read:events',
  'write:events',
  'read:groups',
  'write:groups',
  'read:reports',
  'read:campuses',
  'write:campuses',
  'read:prayer_requests',
  'write:prayer_requests',
  'write:notifications',
  'admin:*',
] as const;

export type Scope = (typeof SCOPES)[number];

export const ROLES = ['org_admin', 'staff', 'finance', 'group_leader', 'volunteer'] as const;
export type Role = (typeof ROLES)[number];

const rw = (resource: string) => [`read:${resource}`, `write:${resource}`];

/** The scopes each role may hold; a token never exceeds its creator's role. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  org_admin: SCOPES,
  staff: [
    ...rw('members'),
    ...rw('attendance'),
    ...rw('events'),
    ...rw('groups'),
    ...rw('campuses'),
    ...rw('prayer_requests'),
    'read:reports',
    'read:donations',
  ] as Scope[],
  finance: [...rw('donations'), 'read:members', 'read:campuses', 'read:reports'] as Scope[],
  group_leader: ['read:members', ...rw('attendance'), ...rw('groups'), 'read:events'] as Scope[],
  volunteer: ['read:members', 'read:events', 'write:attendance'],
};

/** A kiosk key's fixed scopes: check-in lookup and attendance only. */
export const KIOSK_SCOPES: readonly Scope[] = ['read:events', 'read:members', 'write:attendance'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** `admin:*` grants everything; other scopes are exact (write does not imply read). */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('admin:*') || granted.includes(needed);
}

/** The scopes among `scopes` that `role` may hold (an OAuth access token acts within its user's current role). */
export function withinRole(role: Role, scopes: readonly string[]): string[] {
  const allowed = ROLE_SCOPES[role] as readonly string[];
  return scopes.filter((s) => allowed.includes(s));
}

export function scopesAllowedFor(
  role: Role,
  requested: readonly string[],
): { ok: true } | { ok: false; scope: string } {
  const allowed = ROLE_SCOPES[role] as readonly string[];
  const denied = requested.find((s) => !allowed.includes(s));
  return denied ? { ok: false, scope: denied } : { ok: true };
}
