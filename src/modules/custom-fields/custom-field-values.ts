import type { FieldIssue } from '../../common/errors/app-error';
import { isRealDate } from '../../common/lists/list-query';
import type { CustomFieldEntity } from './custom-field.entity';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `whole`: the values replace the member's custom fields (create, PUT, bulk): a required field
 * must have a value. `partial`: they are merged into the member's (PATCH): only the keys given are
 * checked, and null on a required field takes its value away (`missing`).
 */
export type CustomFieldsWrite = 'whole' | 'partial';

/**
 * What is wrong with a member's `custom_fields` against the church's definitions, one issue per
 * key, named `custom_fields.<key>`: unknown_field, invalid_type, not_in_options, missing. The shape
 * (snake_case keys, scalar values, ≤ 500 characters) is the member body's own rule, checked before.
 */
export function customFieldIssues(
  values: Record<string, unknown> | null | undefined,
  definitions: CustomFieldEntity[],
  write: CustomFieldsWrite,
): FieldIssue[] {
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const issues: FieldIssue[] = [];
  const given = values ?? {};
  for (const [key, value] of Object.entries(given)) {
    const definition = byKey.get(key);
    const field = `custom_fields.${key}`;
    if (!definition) issues.push({ field, issue: 'unknown_field' });
    else if (value === null) {
      if (definition.required) issues.push({ field, issue: 'missing' });
    } else {
      const issue = valueIssue(definition, value);
      if (issue) issues.push({ field, ...issue });
    }
  }
  if (write === 'whole') {
    for (const definition of definitions) {
      if (definition.required && !Object.hasOwn(given, definition.key))
        issues.push({ field: `custom_fields.${definition.key}`, issue: 'missing' });
    }
  }
  return issues;
}

function valueIssue(definition: CustomFieldEntity, value: unknown): Pick<FieldIssue, 'issue' | 'params'> | null {
  switch (definition.type) {
    case 'text':
      return typeof value === 'string' ? null : { issue: 'invalid_type', params: { type: 'string' } };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : { issue: 'invalid_type', params: { type: 'number' } };
    case 'boolean':
      return typeof value === 'boolean' ? null : { issue: 'invalid_type', params: { type: 'boolean' } };
    case 'date':
      return typeof value === 'string' && DATE.test(value) && isRealDate(value)
        ? null
        : { issue: 'invalid_type', params: { type: 'date (YYYY-MM-DD)' } };
    case 'select':
      if (typeof value !== 'string') return { issue: 'invalid_type', params: { type: 'string' } };
      return definition.options?.includes(value)
        ? null
        : { issue: 'not_in_options', params: { values: (definition.options ?? []).join(', ') } };
  }
}

/** Whether a body sets any key (its definitions are then held until the write commits: CustomFieldsService.definitions). */
export function setsCustomFields(values: Record<string, unknown> | null | undefined): boolean {
  return !!values && Object.keys(values).length > 0;
}
