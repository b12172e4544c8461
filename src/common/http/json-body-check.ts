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
  next(isRefused(body, 1, checkText) ? AppError.validation(jsonBodyIssues(body)) : undefined);
}

/** The quick pass (no paths, no copies); recursion is bounded by MAX_JSON_DEPTH. */
function isRefused(value: unknown, depth: number, checkText: boolean): boolean {
  if (typeof value === 'string') return checkText && !isStorableText(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (isRefused(item, depth + 1, checkText)) return true;
    return false;
  }
  for (const key in value) {
    if (checkText && !isStorableText(key)) return true;
    if (isRefused((value as Record<string, unknown>)[key], depth + 1, checkText)) return true;
  }
  return false;
}

/** The issues of a refused body, with each field's path (iterative: the body may be nested arbitrarily deep). */
export function jsonBodyIssues(body: object): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 1 }];
  while (stack.length && issues.length < MAX_BODY_ISSUES) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) issues.push({ field: path || '(body)', issue: 'invalid_format', params: { format: STORABLE_TEXT_FORMAT } });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      issues.push({ field: path || '(body)', issue: 'invalid_format', params: { format: `JSON nested at most ${MAX_JSON_DEPTH} levels` } });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const field = path ? `${path}.${printableText(key)}` : printableText(key);
      if (!isStorableText(key)) issues.push({ field, issue: 'invalid_format', params: { format: STORABLE_TEXT_FORMAT } });
      else stack.push({ value: child, path: field, depth: depth + 1 });
    }
  }
  return issues;
}
