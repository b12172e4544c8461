import type { NextFunction, Request, Response } from 'express';
import { AppError, FieldIssue } from '../errors/app-error';
import { isStorableText, printableText, STORABLE_TEXT_FORMAT } from '../validation/text';

/** Deeper than any body of the API (bulk rows with an address are 4 levels); recursive code downstream is safe below it. */
export const MAX_JSON_DEPTH = 32;
const MAX_BODY_ISSUES = 20;

const MAY_HOLD_UNSTORABLE_TEXT = Symbol('mayHoldUnstorableText');
type CheckedRequest = Request & { [MAY_HOLD_UNSTORABLE_TEXT]?: boolean };

/**
 * The JSON parser's `verify` hook, on the raw bytes. Valid UTF-8 JSON can only produce NUL or an
 * unpaired surrogate through a `\u` escape (raw control characters are a parse error, invalid
 * UTF-8 decodes to U+FFFD), so a body without one needs no text check.
 */
export function noteEscapes(req: Request, _res: Response, raw: Buffer, encoding: string): void {
  (req as CheckedRequest)[MAY_HOLD_UNSTORABLE_TEXT] = encoding !== 'utf-8' || raw.includes('\\u');
}

/**
 * A parsed JSON body is checked before anything else reads it: nesting deeper than MAX_JSON_DEPTH,
 * and strings or keys the database cannot hold (NUL, unpaired surrogates), are a 422
 * validation_failed naming the fields, rather than a stack overflow or a driver error (500).
 */
export function checkJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null) return next();
  const checkText = (req as CheckedRequest)[MAY_HOLD_UNSTORABLE_TEXT] !== false;
  // A quick pass without paths; only a refused body is walked again to name its fields.
  if (!walk(body, 1, checkText)) return next();
  const issues: FieldIssue[] = [];
  walk(body, 1, checkText, issues);
  next(AppError.validation(issues));
}

/**
 * Whether the value holds something refused. Without `issues` it stops at the first; with them it
 * collects up to MAX_BODY_ISSUES, each with its field path. Recursion never goes past MAX_JSON_DEPTH.
 */
function walk(value: unknown, depth: number, checkText: boolean, issues?: FieldIssue[], path = ''): boolean {
  if (typeof value === 'string')
    return checkText && !isStorableText(value) && refuse(issues, path, STORABLE_TEXT_FORMAT);
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_JSON_DEPTH) return refuse(issues, path, `JSON nested at most ${MAX_JSON_DEPTH} levels`);
  let refused = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && !(refused && enough(issues)); i++) {
      if (walk(value[i], depth + 1, checkText, issues, issues ? `${path}[${i}]` : '')) refused = true;
    }
    return refused;
  }
  for (const key in value) {
    if (refused && enough(issues)) break;
    const field = issues ? (path ? `${path}.${printableText(key)}` : printableText(key)) : '';
    const child =
      checkText && !isStorableText(key)
        ? refuse(issues, field, STORABLE_TEXT_FORMAT)
        : walk((value as Record<string, unknown>)[key], depth + 1, checkText, issues, field);
    if (child) refused = true;
  }
  return refused;
}

function refuse(issues: FieldIssue[] | undefined, path: string, format: string): true {
  issues?.push({ field: path || '(body)', issue: 'invalid_format', params: { format } });
  return true;
}

const enough = (issues?: FieldIssue[]) => !issues || issues.length >= MAX_BODY_ISSUES;
