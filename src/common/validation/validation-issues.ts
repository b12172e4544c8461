import type { ValidationError } from 'class-validator';
import type { FieldIssue } from '../errors/app-error';

const TYPE_OF: Record<string, string> = {
  isString: 'string',
  isBoolean: 'boolean',
  isInt: 'integer',
  isNumber: 'number',
  isObject: 'object',
  isArray: 'array',
  nestedValidation: 'object',
};

const FORMAT_OF: Record<string, string> = {
  isEmail: 'email',
  isDateString: 'ISO 8601',
  isISO8601: 'ISO 8601',
  isUUID: 'UUID',
  isUrl: 'URL',
  isTimeZone: 'IANA time zone',
};

/** Custom validators (registerDecorator does not carry `context`) name their issue here. */
const CUSTOM: Record<string, Pick<FieldIssue, 'issue' | 'params'>> = {
  isRealDate: { issue: 'invalid_format', params: { format: 'YYYY-MM-DD' } },
  isNotFuture: { issue: 'in_future' },
  isCustomFields: {
    issue: 'invalid_format',
    params: { format: 'up to 50 snake_case keys with string (≤ 500), number, boolean or null values' },
  },
};

function issueOf(constraint: string, error: ValidationError): Pick<FieldIssue, 'issue' | 'params'> {
  const context = error.contexts?.[constraint] as
    { issue?: string; params?: Record<string, string | number> } | undefined;
  if (context?.issue) return { issue: context.issue, params: context.params };
  if (CUSTOM[constraint]) return CUSTOM[constraint];
  if (constraint === 'whitelistValidation') return { issue: 'unknown_field' };
  if (constraint === 'isDefined' || constraint === 'isNotEmpty') return { issue: 'required' };
  if (TYPE_OF[constraint]) return { issue: 'invalid_type', params: { type: TYPE_OF[constraint] } };
  if (FORMAT_OF[constraint]) return { issue: 'invalid_format', params: { format: FORMAT_OF[constraint] } };
  return { issue: 'invalid' };
}

/** Flattens class-validator's tree into `errors[]` entries with dotted paths (`address.city`, `members[3].email`). */
export function toFieldIssues(errors: ValidationError[], parent = ''): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const error of errors) {
    const path = !parent
      ? error.property
      : /^\d+$/.test(error.property)
        ? `${parent}[${error.property}]`
        : `${parent}.${error.property}`;
    const constraints = Object.keys(error.constraints ?? {});
    if (constraints.length > 0) {
      // The first failing rule per field is the most useful one (required before format, type before length).
      const ordered = constraints.includes('isDefined') ? 'isDefined' : constraints[constraints.length - 1];
      out.push({ field: path, ...issueOf(ordered, error) });
    }
    if (error.children?.length) out.push(...toFieldIssues(error.children, path));
  }
  return out;
}

/** PATCH: fields that cannot be cleared. Absent leaves them as they are; null is a `required` issue. */
export function clearedRequiredFields(dto: object, fields: readonly string[]): FieldIssue[] {
  return fields
    .filter((field) => (dto as Record<string, unknown>)[field] === null)
    .map((field) => ({ field, issue: 'required' }));
}
