import { v7 as uuidv7 } from 'uuid';
import { AppError } from '../errors/app-error';

/** Prefixes of public identifiers (CONTRACT §2). */
export const ID_PREFIX = {
  member: 'mem',
  donation: 'don',
  event: 'evt',
  group: 'grp',
  fund: 'fnd',
  campus: 'cmp',
  oauthClient: 'app',
  prospect: 'prs',
  attendance: 'att',
  prayerRequest: 'prq',
  tag: 'tag',
  device: 'dev',
  notification: 'ntf',
  token: 'tok',
  user: 'usr',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  household: 'hh',
  audit: 'aud',
  request: 'req',
} as const;

export type IdPrefix = (typeof ID_PREFIX)[keyof typeof ID_PREFIX];

const BODY = /^[0-9a-f]{32}$/;

/** A new time-ordered UUID (v7), as stored in the database. */
export function newUuid(): string {
  return uuidv7();
}

/** uuid (database form) -> `mem_0192…` (public form). */
export function toPublicId(prefix: IdPrefix, uuid: string): string {
  return `${prefix}_${uuid.replace(/-/g, '')}`;
}

/** `mem_0192…` -> uuid, or null when the prefix or body is wrong. */
export function parsePublicId(prefix: IdPrefix, value: unknown): string | null {
  if (typeof value !== 'string' || value.length !== prefix.length + 33 || !value.startsWith(`${prefix}_`)) return null;
  const body = value.slice(prefix.length + 1);
  if (!BODY.test(body)) return null;
  return `${body.slice(0, 8)}-${body.slice(8, 12)}-${body.slice(12, 16)}-${body.slice(16, 20)}-${body.slice(20)}`;
}

/** Like parsePublicId, but a malformed id is a 404 for `resource` (never a 500). */
export function requirePublicId(prefix: IdPrefix, value: unknown, resource: string): string {
  const uuid = parsePublicId(prefix, value);
  if (!uuid) throw AppError.notFound(resource);
  return uuid;
}

export function newPublicId(prefix: IdPrefix): string {
  return toPublicId(prefix, newUuid());
}
