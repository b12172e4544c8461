import { randomFillSync } from 'node:crypto';
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
  pushToken: 'ptk',
  token: 'tok',
  user: 'usr',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  household: 'hh',
  customField: 'cfd',
  registration: 'reg',
  checkIn: 'cki',
  batch: 'bat',
  recurringGift: 'rcg',
  pledge: 'plg',
  statement: 'stm',
  statementRun: 'stmrun',
  audit: 'aud',
  request: 'req',
  change: 'chg',
} as const;

export type IdPrefix = (typeof ID_PREFIX)[keyof typeof ID_PREFIX];

const BODY = /^[0-9a-f]{32}$/;

const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A uuid in the lowercase text form PostgreSQL and newUuid produce. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A new time-ordered UUID (RFC 9562 version 7): 48 bits of Unix milliseconds, then 74 random
 * bits. Random bytes come from a pool refilled 4 KiB at a time (one syscall per ~400 ids).
 */
export function newUuid(): string {
  if (poolOffset + 10 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const r = pool.subarray(poolOffset, (poolOffset += 10));
  const ms = Date.now();
  const b = [
    Math.floor(ms / 2 ** 40) & 0xff,
    Math.floor(ms / 2 ** 32) & 0xff,
    (ms >>> 24) & 0xff,
    (ms >>> 16) & 0xff,
    (ms >>> 8) & 0xff,
    ms & 0xff,
    0x70 | (r[0] & 0x0f),
    r[1],
    0x80 | (r[2] & 0x3f),
    r[3],
    r[4],
    r[5],
    r[6],
    r[7],
    r[8],
    r[9],
  ].map((byte) => HEX[byte]);
  return `${b[0]}${b[1]}${b[2]}${b[3]}-${b[4]}${b[5]}-${b[6]}${b[7]}-${b[8]}${b[9]}-${b[10]}${b[11]}${b[12]}${b[13]}${b[14]}${b[15]}`;
}

/** uuid (database form) -> `mem_0192…` (public form). */
export function toPublicId(prefix: IdPrefix, uuid: string): string {
  // The database's form (8-4-4-4-12) by slices: a list page makes hundreds, and a RegExp costs twice as much.
  if (uuid.length === 36)
    return `${prefix}_${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(14, 18)}${uuid.slice(19, 23)}${uuid.slice(24)}`;
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
