import { escapeLiteral } from 'pg';
// pg's own conversion of a parameter to its text form (dates, arrays, JSON), as it sends them.
import { prepareValue } from 'pg/lib/utils';
import { BoundedMap } from '../common/caching/bounded-map';

const MAX_INLINED = 16_384;

/**
 * `sql` with its `$n` placeholders replaced by the values as SQL literals, for the simple query
 * protocol (which takes several statements in one message). A quoted literal has type `unknown`
 * as an untyped parameter has, so PostgreSQL resolves it from its context the same way. Returns
 * null when the text cannot be read safely (an unterminated quote, a placeholder without a value)
 * or when the values are long (escaping them here would cost more than the round trip it saves):
 * the caller then sends the query with its parameters.
 */
export function inlineParameters(sql: string, values: readonly unknown[] = []): string | null {
  if (values.some(isLong)) return null;
  let template = templates.get(sql);
  if (template === undefined) templates.set(sql, (template = templateOf(sql)));
  if (!template) return null;
  const { parts, placeholders } = template;
  let out = parts[0];
  for (let k = 0; k < placeholders.length; k++) {
    const index = placeholders[k];
    if (index < 1 || index > values.length) return null;
    out += literal(values[index - 1]);
    if (out.length > MAX_INLINED) return null;
    out += parts[k + 1];
  }
  return out;
}

/** A statement's text around its `$n` placeholders: `parts` has one more element than `placeholders`. */
interface Template {
  parts: string[];
  placeholders: number[];
}

/** The templates of the statements seen, so that each text is read once (the app sends few distinct texts). */
const templates = new BoundedMap<string, Template | null>(1_000);

/** Null when the text cannot be read safely (an unterminated quote or comment, a `$` that starts nothing known). */
function templateOf(sql: string): Template | null {
  const parts: string[] = [];
  const placeholders: number[] = [];
  let from = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === "'") {
      const escapes = i > 0 && (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !isIdentChar(sql[i - 2]);
      const end = endOfQuoted(sql, i, "'", escapes);
      if (end < 0) return null;
      i = end;
    } else if (c === '"') {
      const end = endOfQuoted(sql, i, '"', false);
      if (end < 0) return null;
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = endOfBlockComment(sql, i);
      if (end < 0) return null;
      i = end;
    } else if (c === '$') {
      if (isIdentChar(sql[i - 1])) {
        i++; // part of an identifier (PostgreSQL allows $ in them)
        continue;
      }
      let j = i + 1;
      while (j < n && sql[j] >= '0' && sql[j] <= '9') j++;
      if (j > i + 1) {
        parts.push(sql.slice(from, i));
        placeholders.push(Number(sql.slice(i + 1, j)));
        from = i = j;
        continue;
      }
      const tag = /^\$[A-Za-z_][A-Za-z0-9_]*\$|^\$\$/.exec(sql.slice(i, i + 64));
      if (!tag) return null;
      const end = sql.indexOf(tag[0], i + tag[0].length);
      if (end < 0) return null;
      i = end + tag[0].length;
    } else i++;
  }
  parts.push(sql.slice(from));
  return { parts, placeholders };
}

function isLong(value: unknown): boolean {
  return (
    (typeof value === 'string' && value.length > MAX_INLINED) ||
    (Array.isArray(value) && value.length > 256) ||
    (Buffer.isBuffer(value) && value.length > MAX_INLINED)
  );
}

function literal(value: unknown): string {
  const text = prepareValue(value);
  if (text === null || text === undefined) return 'NULL';
  if (Buffer.isBuffer(text)) return `'\\x${text.toString('hex')}'`;
  return escapeLiteral(text);
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
}

/** Index after the quote that closes the one at `start` (a doubled quote is part of the text); -1 if none. */
function endOfQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  for (let i = start + 1; i < sql.length; i++) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') i++;
    else if (c === quote) {
      if (sql[i + 1] === quote) i++;
      else return i + 1;
    }
  }
  return -1;
}

/** Block comments nest in PostgreSQL. */
function endOfBlockComment(sql: string, start: number): number {
  let depth = 0;
  for (let i = start; i < sql.length - 1; i++) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i++;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
