import createClient from 'openapi-fetch';
import { ChurchApiError, ChurchNetworkError } from './errors.js';
import { COUNTED_LISTS, IDEMPOTENT_POSTS } from './generated/operations.js';
import type { paths } from './generated/openapi.js';
import type { HttpMethod, ListPage, PathsWith, ResponseBody } from './types.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** The backoff's base: attempt n waits a random time up to base × 2^(n-1) ("full jitter"; default 500 ms). */
  baseDelayMs?: number;
  /** The backoff's ceiling (default 10,000 ms). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once (default 60,000 ms). */
  maxRetryAfterMs?: number;
}

export interface ChurchClientOptions {
  /** An API token (`chp_…`, `chs_…`, `chk_…`) or an OAuth access token (`cho_…`). */
  token: string;
  /** The church's key (`X-Tenant`). */
  tenant: string;
  /** The API's origin, e.g. `https://api.example.org` (no `/v1`). */
  baseUrl: string;
  /** `Accept-Language`: `es` (the API's default), `en` or `pt`; error messages and `*_label` fields follow it. */
  language?: string;
  /** Retries of network errors, 409 `idempotency_in_progress`, 429 and 503; `false` turns them off. */
  retries?: RetryOptions | false;
  /**
   * Time-out of one attempt, body included, in ms; a timed-out attempt counts as a network error. Default 0:
   * none of the SDK's own (Node's fetch gives up on a server silent for 5 minutes). Off by default because a
   * signal on every request costs the client a few percent of a request's CPU (`npm run sdk:bench`).
   */
  timeoutMs?: number;
  /** The `fetch` to use (default `globalThis.fetch`): a test double, or one with a proxy agent. */
  fetch?: (request: Request) => Promise<Response>;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call, its retries and their waits. */
  signal?: AbortSignal;
  /** A creating POST's Idempotency-Key (default: a new UUID v4 for the call, the same on each of its retries). */
  idempotencyKey?: string;
  /** `Accept-Language` of this call only. */
  language?: string;
  /** Extra headers of this call. */
  headers?: Record<string, string>;
}

/** What `send` needs besides the method and path: path parameters, query and JSON body. */
export interface SendInit {
  path?: Record<string, string>;
  query?: object;
  body?: unknown;
  /** `'json'` (default) or `'arrayBuffer'` for a binary answer (a statement's PDF). */
  parseAs?: 'json' | 'arrayBuffer';
}

type Attempt = { data?: unknown; error?: unknown; response: Response };
type RawRequest = (method: string, url: string, init: Record<string, unknown>) => Promise<Attempt>;

const DEFAULT_RETRIES: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/**
 * The requests of a ChurchClient: openapi-fetch (path parameters, query, JSON) under the rules of the API.
 *
 * - Every request carries `Authorization`, `X-Tenant` and `Accept-Language`.
 * - A POST whose operation takes an Idempotency-Key (the creating POSTs and the other POSTs the document
 *   marks so; `generated/operations.ts`) gets a new UUID v4, and every retry of that call sends the same.
 * - Retried, up to `maxAttempts` in all: 429 and 409 `idempotency_in_progress` (nothing was done), and
 *   503 and network errors when a repeat is safe (GET, PUT, PATCH and DELETE, and a POST with its
 *   Idempotency-Key). The wait is `Retry-After` when the answer has one, else exponential backoff with
 *   full jitter.
 * - Anything else that is not 2xx is thrown as a ChurchApiError.
 */
export class Transport {
  private readonly raw: RawRequest;
  private readonly baseHeaders: Record<string, string>;
  private readonly retries: Required<RetryOptions>;
  private readonly timeoutMs: number;
  private readonly userFetch: ChurchClientOptions['fetch'];

  constructor(options: ChurchClientOptions) {
    for (const name of ['token', 'tenant', 'baseUrl'] as const) {
      if (typeof options[name] !== 'string' || options[name] === '')
        throw new TypeError(`ChurchClient: \`${name}\` is required`);
    }
    this.userFetch = options.fetch;
    const client = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      Request: PendingRequest as unknown as typeof Request,
      // The document's parameters are all simple: ids in the path, flat names (`age[gte]`) with
      // primitive values in the query. These two do what openapi-fetch's general serializers do for
      // them, at a fraction of their cost per request.
      pathSerializer: serializePath,
      querySerializer: serializeQuery,
    });
    this.raw = client.request as unknown as RawRequest;
    this.baseHeaders = {
      ...options.headers,
      Authorization: `Bearer ${options.token}`,
      'X-Tenant': options.tenant,
      Accept: 'application/json',
      ...(options.language ? { 'Accept-Language': options.language } : {}),
    };
    this.retries =
      options.retries === false ? { ...DEFAULT_RETRIES, maxAttempts: 1 } : { ...DEFAULT_RETRIES, ...options.retries };
    this.timeoutMs = options.timeoutMs ?? 0;
  }

  /** One operation, retried as the rules say; resolves with its answer's body (undefined for a 204). */
  async send<M extends HttpMethod, P extends PathsWith<M>>(
    method: M,
    path: P,
    init: SendInit = {},
    options: CallOptions = {},
  ): Promise<ResponseBody<P, M>> {
    const headers: Record<string, string> = { ...this.baseHeaders };
    if (options.language) headers['Accept-Language'] = options.language;
    if (options.headers) Object.assign(headers, options.headers);
    if (method === 'post' && (options.idempotencyKey || IDEMPOTENT_POSTS.has(path)))
      headers['Idempotency-Key'] = options.idempotencyKey ?? uuidv4();
    // A repeat is harmless: reads, PUT/PATCH/DELETE (same end state), and POSTs the key makes replay-safe.
    const repeatable = method !== 'post' || 'Idempotency-Key' in headers;
    const request = {
      params: { path: init.path, query: init.query },
      body: init.body,
      parseAs: init.parseAs ?? 'json',
      // The headers reach fetch as they are (see PendingRequest), not through openapi-fetch's Headers.
      fetch: (pending: PendingRequest) => this.dispatch(pending, headers),
    };
    const { maxAttempts } = this.retries;
    for (let attempt = 1; ; attempt++) {
      let result: Attempt;
      const timer = attemptSignal(options.signal, this.timeoutMs);
      try {
        result = await this.raw(method, path, { ...request, signal: timer.signal });
      } catch (error) {
        if (options.signal?.aborted) throw abortReason(options.signal);
        if (!repeatable || attempt >= maxAttempts)
          throw new ChurchNetworkError(
            `${method.toUpperCase()} ${path}: ${describe(error)} (${attempt} attempt${attempt > 1 ? 's' : ''})`,
            attempt,
            { cause: error },
          );
        await sleep(this.backoff(attempt), options.signal);
        continue;
      } finally {
        timer.done();
      }
      const { response } = result;
      if (response.ok) return result.data as ResponseBody<P, M>;
      const error = new ChurchApiError(response.status, result.error, response.headers, response.statusText);
      if (attempt >= maxAttempts || !retryable(error, repeatable)) throw error;
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > this.retries.maxRetryAfterMs) throw error;
      await sleep(Math.max(retryAfter ?? 0, this.backoff(attempt)), options.signal);
    }
  }

  /** The fetch of one attempt: openapi-fetch's URL, method, body and signal, with our headers. */
  private dispatch(pending: PendingRequest, headers: Record<string, string>): Promise<Response> {
    const init: RequestInit = {
      ...pending.init,
      headers: pending.init.body == null ? headers : { ...headers, 'Content-Type': 'application/json' },
    };
    return this.userFetch ? this.userFetch(new Request(pending.url, init)) : globalThis.fetch(pending.url, init);
  }

  /** Every record of a list route, page after page (`next_cursor` as `cursor`), fetched as they are consumed. */
  list<P extends PathsWith<'get'>, T>(
    path: P,
    init: { path?: Record<string, string>; query?: object },
    options: CallOptions = {},
  ): ListIterator<T> {
    return new ListIterator<T>(
      async (cursor, first) => {
        const query: Record<string, unknown> = { ...(init.query as Record<string, unknown> | undefined) };
        if (cursor !== undefined) query.cursor = cursor;
        // After the first page, ask the API not to count the matches again (where the route can skip it).
        if (!first && query.total === undefined && COUNTED_LISTS.has(path)) query.total = false;
        const page: unknown = await this.send('get', path, { path: init.path, query }, options);
        return page as ListPage<T>;
      },
      (init.query as { cursor?: string } | undefined)?.cursor,
    );
  }

  private backoff(attempt: number): number {
    const { baseDelayMs, maxDelayMs } = this.retries;
    return Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  }
}

/** `/v1/members/{id}` with `{id: 'mem_…'}` → `/v1/members/mem_…` (each value URI-encoded). */
function serializePath(path: string, params: Record<string, unknown>): string {
  return path.replace(/\{([^{}]+)\}/g, (match, name: string) => {
    const value = params[name];
    return value === undefined || value === null ? match : encodeURIComponent(paramText(value));
  });
}

/** A parameter's value as text: an array (`status[in]`) as comma-separated values. */
function paramText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
  if (Array.isArray(value)) return value.map(paramText).join(',');
  return JSON.stringify(value);
}

/** `{campus: 'north', 'age[gte]': 18}` → `campus=north&age[gte]=18`: names as written, values URI-encoded. */
function serializeQuery(query: Record<string, unknown>): string {
  let search = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    search += `${search ? '&' : ''}${name}=${encodeURIComponent(paramText(value))}`;
  }
  return search;
}

/**
 * The request openapi-fetch builds (its `Request` option): the URL and init kept as they are, so that
 * `fetch(url, init)` makes the one real Request, with the headers as a plain object. With the standard
 * class openapi-fetch builds a Request and a Headers, and `fetch` copies both again: about 20 µs of a
 * GET's 200 µs of client CPU (`npm run sdk:bench`).
 */
class PendingRequest {
  readonly method: string;
  constructor(
    readonly url: string,
    readonly init: RequestInit,
  ) {
    this.method = init.method ?? 'GET';
  }
}

/**
 * A list's records, as an async iterable over every page: `for await (const m of client.members.list())`.
 * Nothing is fetched until it is iterated. `pages()` gives the pages themselves (with `total`), `page()`
 * the first page alone, `toArray()` everything in memory.
 */
export class ListIterator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (cursor: string | undefined, first: boolean) => Promise<ListPage<T>>,
    private readonly startCursor?: string,
  ) {}

  /** The first page only (as the list was asked for: its `limit` and `cursor`). */
  page(): Promise<ListPage<T>> {
    return this.fetchPage(this.startCursor, true);
  }

  /** Page after page, following `next_cursor` until it is null. */
  async *pages(): AsyncGenerator<ListPage<T>, void, undefined> {
    let cursor = this.startCursor;
    for (let first = true; ; first = false) {
      const page = await this.fetchPage(cursor, first);
      yield page;
      if (!page.next_cursor || page.data.length === 0 || page.next_cursor === cursor) return;
      cursor = page.next_cursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every record (at most `max`) in an array. */
  async toArray(max = Infinity): Promise<T[]> {
    const all: T[] = [];
    if (max <= 0) return all;
    for await (const item of this) {
      all.push(item);
      if (all.length >= max) break;
    }
    return all;
  }
}

function retryable(error: ChurchApiError, repeatable: boolean): boolean {
  if (error.status === 429) return true; // rate limited: nothing was done
  if (error.status === 409) return error.code === 'idempotency_in_progress'; // the first request still runs
  if (error.status === 503) return repeatable;
  return false;
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Waits `ms`; an abort of `signal` ends the wait by rejecting with its reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}

/** The signal of one attempt: the caller's, plus the attempt's time-out. */
function attemptSignal(user: AbortSignal | undefined, timeoutMs: number): { signal?: AbortSignal; done(): void } {
  if (!timeoutMs) return { signal: user, done: () => undefined };
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  const onAbort = () => controller.abort(user!.reason);
  if (user?.aborted) controller.abort(user.reason);
  else user?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    },
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/** A random UUID v4 (crypto.randomUUID where the platform has it: Node, and browsers on https). */
export function uuidv4(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = Array.from(c.getRandomValues(new Uint8Array(16)), (x, i) =>
    i === 6 ? (x & 0x0f) | 0x40 : i === 8 ? (x & 0x3f) | 0x80 : x,
  );
  const h = bytes.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
