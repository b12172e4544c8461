import type { ErrorCode, FieldError } from './types.js';

/**
 * An answer other than 2xx, from its RFC 9457 problem body: `status`, the stable `code`
 * (`resource_not_found`, `validation_failed`, …), `title` and `detail` in the client's language, the
 * `request_id` to quote to support, and `errors[]` naming each invalid field. Thrown once the retries
 * (if the answer is retryable) are spent.
 */
export class ChurchApiError extends Error {
  override readonly name = 'ChurchApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The stable snake_case code; `http_<status>` when the body was not a problem (a proxy's page). */
  readonly code: ErrorCode | (string & {});
  readonly title: string;
  readonly detail: string | undefined;
  /** The `req_…` id of the request (also the `X-Request-Id` header). */
  readonly request_id: string | undefined;
  /** The fields at fault, for a 422 `validation_failed` (empty otherwise). */
  readonly errors: FieldError[];
  /** The problem's `type` URI. */
  readonly type: string | undefined;
  /** The answer's headers (`Retry-After`, `X-RateLimit-*`, `WWW-Authenticate`). */
  readonly headers: Headers;
  /** The body as received: the problem object, or the text of a body that was not JSON. */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers, statusText = '') {
    const problem = isObject(body) ? body : {};
    const code = str(problem.code) ?? `http_${status}`;
    const title = str(problem.title) ?? (statusText || `HTTP ${status}`);
    const detail = str(problem.detail) ?? (typeof body === 'string' && body ? body.slice(0, 500) : undefined);
    super(`${status} ${code}: ${detail ?? title}`);
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.request_id = str(problem.request_id) ?? headers.get('x-request-id') ?? undefined;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
    this.type = str(problem.type);
    this.headers = headers;
    this.body = body;
  }
}

/**
 * The request never got an answer (connection refused or reset, DNS, a time-out), and retrying did not
 * help or was not safe. `cause` is the error `fetch` threw.
 */
export class ChurchNetworkError extends Error {
  override readonly name = 'ChurchNetworkError';
  constructor(
    message: string,
    /** How many attempts were made. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
