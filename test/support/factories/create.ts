import { randomBytes } from 'node:crypto';
import type { Call, JsonObject, TestApi } from '../api';
import { as, Caller } from '../http';

/** `prefix` and 8 random hex digits, for names that must not collide. */
export const uniqueName = (prefix: string, separator = ' ') => `${prefix}${separator}${randomBytes(4).toString('hex')}`;

/**
 * Sends `body` to `path` as `church` (its admin token unless `call` names another) and returns the
 * body of the answer, which must have status `status`: what every factory does, as a client would.
 */
export async function answered<T>(
  api: TestApi,
  method: 'POST' | 'PUT',
  church: Caller,
  path: string,
  body: JsonObject,
  call: Call = {},
  status = 201,
): Promise<T> {
  const res = await api.send<T>(method, path, as(church, { ...call, body }));
  if (res.status !== status) throw new Error(`${method} ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** POST `body` to `path`; the answer must be `status` (201 unless said). */
export function created<T>(
  api: TestApi,
  church: Caller,
  path: string,
  body: JsonObject,
  call: Call = {},
  status = 201,
): Promise<T> {
  return answered<T>(api, 'POST', church, path, body, call, status);
}

/** The answer of a creation with its secret `field` shown (it is null only on an idempotent replay, which a factory never makes). */
export async function shown<T, K extends keyof T>(
  answer: Promise<T>,
  field: K,
): Promise<T & { [P in K]: NonNullable<T[P]> }> {
  const body = await answer;
  if (body[field] === null || body[field] === undefined)
    throw new Error(`no ${String(field)} in the answer (a replay?)`);
  return body as T & { [P in K]: NonNullable<T[P]> };
}
