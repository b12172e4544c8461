import { escapeLiteral } from 'pg';

/**
 * A value as an inlined `json` literal, for statements sent without parameters (see
 * Database.runScriptInTenant). pg's escapeLiteral quotes it; NUL, which PostgreSQL text cannot
 * hold, is dropped.
 */
export function jsonLiteral(value: unknown): string {
  return `${escapeLiteral(JSON.stringify(value).replace(/\\u0000/g, ''))}::json`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids as an inlined `uuid[]` literal; anything that is not a uuid is refused. */
export function uuidArrayLiteral(ids: string[]): string {
  for (const id of ids) if (!UUID.test(id)) throw new Error('uuidArrayLiteral: not a uuid');
  return `'{${ids.join(',')}}'::uuid[]`;
}
