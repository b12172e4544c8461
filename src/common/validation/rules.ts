import { IsIn, Matches, MaxLength, MinLength, ValidationOptions } from 'class-validator';

/** class-validator rules that carry their stable `issue` and message parameters (see validation-issues.ts). */
const ctx = (
  issue: string,
  params: Record<string, string | number> = {},
  extra: ValidationOptions = {},
): ValidationOptions => ({ ...extra, context: { issue, params } });

export const OneOf = (values: readonly string[], options: ValidationOptions = {}) =>
  IsIn([...values], ctx('one_of', { values: values.join(', ') }, options));
export const MaxLen = (max: number) => MaxLength(max, ctx('too_long', { max }));
export const MinLen = (min: number) => MinLength(min, ctx('too_short', { min }));
export const Format = (pattern: RegExp, format: string) => Matches(pattern, ctx('invalid_format', { format }));

export const E164 = /^\+[1-9]\d{6,14}$/;
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
