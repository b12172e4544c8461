import { escapeLiteral } from 'pg';

/**
 * A value as an inlined `json` literal, for statements sent without parameters (see
 * Database.runScriptInTenant). pg's escapeLiteral quotes it; NUL, which PostgreSQL text cannot
 * hold, is dropped.
 */
export function jsonLiteral(value: unknown): string {
  return `${escapeLiteral(JSON.stringify(value).replace(/\\u0000/g, ''))}::json`;
}
