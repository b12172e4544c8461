import { escapeLiteral } from 'pg';
import { isUuid } from '../common/ids/id';

/**
 * A value as an inlined `json` literal, for statements sent without parameters (see
 * Database.runScriptInTenant). pg's escapeLiteral quotes it; NUL, which PostgreSQL text cannot
 * hold, is dropped.
 */
export function jsonLiteral(value: unknown): string {
  return `${escapeLiteral(JSON.stringify(value).replace(/\\u0000/g, ''))}::json`;
}

/** Ids as an inlined `uuid[]` literal; anything that is not a uuid is refused. */
export function uuidArrayLiteral(ids: string[]): string {
  for (const id of ids) if (!isUuid(id)) throw new Error('uuidArrayLiteral: not a uuid');
  return `'{${ids.join(',')}}'::uuid[]`;
}
