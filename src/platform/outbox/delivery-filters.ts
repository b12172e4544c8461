/** Optional delivery filters of an endpoint (CONTRACT §8): conditions on the payload, ANDed. */
export const FILTER_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
export type Scalar = string | number | boolean | null;

export interface DeliveryFilter {
  path: string;
  op: FilterOp;
  value: Scalar | Scalar[];
}

const PATH = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/;

export function filterProblems(filters: unknown): { field: string; issue: string; params?: Record<string, string> }[] {
  if (!Array.isArray(filters)) return [{ field: 'filters', issue: 'invalid_type', params: { type: 'array' } }];
  const problems: { field: string; issue: string; params?: Record<string, string> }[] = [];
  if (filters.length > 20) problems.push({ field: 'filters', issue: 'too_many', params: { max: '20' } });
  filters.forEach((f: Partial<DeliveryFilter>, i) => {
    if (typeof f !== 'object' || f === null)
      return problems.push({ field: `filters[${i}]`, issue: 'invalid_type', params: { type: 'object' } });
    if (typeof f.path !== 'string' || !PATH.test(f.path))
      problems.push({
        field: `filters[${i}].path`,
        issue: 'invalid_format',
        params: { format: 'dotted path, e.g. data.object.amount' },
      });
    if (!FILTER_OPS.includes(f.op as FilterOp))
      problems.push({ field: `filters[${i}].op`, issue: 'one_of', params: { values: FILTER_OPS.join(', ') } });
    const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
    const ok =
      f.op === 'in' ? Array.isArray(f.value) && f.value.length <= 100 && f.value.every(scalar) : scalar(f.value);
    if (!ok) problems.push({ field: `filters[${i}].value`, issue: 'invalid' });
    const extra = Object.keys(f).find((k) => !['path', 'op', 'value'].includes(k));
    if (extra) problems.push({ field: `filters[${i}].${extra}`, issue: 'unknown_field' });
  });
  return problems;
}

function valueAt(payload: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      payload,
    );
}

/** Does the event payload pass every filter? A missing field fails every operator but `ne`. */
export function matchesFilters(payload: unknown, filters: DeliveryFilter[]): boolean {
  return filters.every(({ path, op, value }) => {
    const actual = valueAt(payload, path);
    switch (op) {
      case 'eq':
        return actual === value;
      case 'ne':
        return actual !== value;
      case 'in':
        return (value as Scalar[]).includes(actual as Scalar);
      default: {
        if (typeof actual !== typeof value || (typeof actual !== 'number' && typeof actual !== 'string')) return false;
        const [a, b] = [actual, value as number | string];
        return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
      }
    }
  });
}
