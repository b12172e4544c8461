import { FILTER_OPS, type DeliveryFilter, type Scalar } from '../../platform/outbox/delivery-filters';
import { EVENT_TYPES } from '../../platform/outbox/event-types';
import type { EndpointResponse } from '../webhook-endpoints/dto/endpoint.response';
import { type Fields, field, fieldList } from './console-gate';

/** Empty filter rows the form always offers (the API takes up to 20; more rows appear as they are filled). */
const SPARE_FILTER_ROWS = 2;
const EVENT_CHOICES = [...EVENT_TYPES, '*'];

/** One delivery filter as the form writes it: three texts. */
export interface FilterRow {
  path: string;
  op: string;
  value: string;
}

/** A webhook endpoint's fields as the console's new and edit forms send them. */
export interface EndpointForm {
  url: string;
  description: string;
  events: string[];
  filters: FilterRow[];
}

/** The form as sent: the filter rows are the repeated `filter_path`, `filter_op` and `filter_value` fields, in order. */
export function readEndpointForm(fields: Fields): EndpointForm {
  const [paths, ops, values] = ['filter_path', 'filter_op', 'filter_value'].map((name) => fieldList(fields, name));
  return {
    url: field(fields, 'url') ?? '',
    description: field(fields, 'description') ?? '',
    events: fieldList(fields, 'events'),
    filters: paths.map((path, i) => ({ path, op: ops[i] ?? '', value: values[i] ?? '' })),
  };
}

/** An endpoint's settings in the edit form. */
export function endpointFormOf(endpoint: EndpointResponse): EndpointForm {
  return {
    url: endpoint.url,
    description: endpoint.description ?? '',
    events: endpoint.events,
    filters: (endpoint.filters as DeliveryFilter[]).map((f) => ({
      path: f.path,
      op: f.op,
      value: formatValue(f.value),
    })),
  };
}

/**
 * The body the API's create and PATCH routes take. A row left blank is no filter; a value is read
 * as JSON when it is a number, true, false, null or a quoted string, else as the text itself
 * (`in`: a comma-separated list, or a JSON array). The service validates the result.
 */
export function endpointBody(form: EndpointForm) {
  return {
    url: form.url,
    events: form.events,
    description: form.description.trim() || null,
    filters: form.filters
      .filter((f) => f.path.trim() !== '' || f.value.trim() !== '')
      .map((f) => ({ path: f.path.trim(), op: f.op, value: parseValue(f.value, f.op) })),
  };
}

/** The form's locals: the event checkboxes and the filter rows, with spare empty rows to fill. */
export function endpointFormView(form: EndpointForm) {
  const chosen = new Set(form.events);
  const rows = [
    ...form.filters,
    ...Array.from({ length: SPARE_FILTER_ROWS }, () => ({ path: '', op: 'eq', value: '' })),
  ];
  return {
    url: form.url,
    description: form.description,
    events: EVENT_CHOICES.map((type) => ({ value: type, checked: chosen.has(type) })),
    filters: rows.map((row, i) => ({
      n: i + 1,
      path: row.path,
      value: row.value,
      ops: FILTER_OPS.map((op) => ({ value: op, selected: op === row.op })),
    })),
  };
}

function parseScalar(text: string): unknown {
  const trimmed = text.trim();
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed === null || ['number', 'boolean', 'string'].includes(typeof parsed)) return parsed;
  } catch {
    // Not JSON: the text itself.
  }
  return trimmed;
}

function parseValue(text: string, op: string): unknown {
  if (op !== 'in') return parseScalar(text);
  if (text.trim().startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not a JSON array: a comma-separated list.
    }
  }
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map(parseScalar);
}

/** A stored value written back the way parseValue reads it. */
function formatValue(value: Scalar | Scalar[]): string {
  if (Array.isArray(value)) return value.map(formatScalar).join(', ');
  return formatScalar(value);
}

function formatScalar(value: Scalar): string {
  return typeof value === 'string' && parseScalar(value) === value && !value.includes(',')
    ? value
    : JSON.stringify(value);
}
