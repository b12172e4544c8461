import type { ProblemBody } from '../../src/common/errors/problem';
import type { Call, TestApi } from './api';

/** `?a=b&c=d`, percent-encoded (brackets, commas, `+` and `:` survive the trip); `?` alone for no parameters. */
export const qs = (params: Record<string, string>): string => `?${new URLSearchParams(params).toString()}`;

/** A church as a caller knows it: a token and the slug for X-Tenant (a TestTenant is one, with its admin token). */
export interface Caller {
  token: string;
  slug: string;
}

/**
 * The call options of an authenticated request: `as(church)` with the church's own (admin) token,
 * `as(token, church)` with another token of the church; `extra` adds a body, headers, a language…
 */
export function as(church: Caller, extra?: Call): Call;
export function as(token: string, church: Pick<Caller, 'slug'>, extra?: Call): Call;
export function as(who: Caller | string, second?: Pick<Caller, 'slug'> | Call, third: Call = {}): Call {
  if (typeof who === 'string') return { token: who, tenant: (second as Pick<Caller, 'slug'>).slug, ...third };
  return { token: who.token, tenant: who.slug, ...(second as Call | undefined) };
}

/** A response whose body may be a problem (status and headers as supertest has them). */
interface ProblemResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** Asserts an RFC 9457 answer: the status, the `code`, and the application/problem+json content type. Returns the body. */
export function expectProblem(res: ProblemResponse, status: number, code: string): ProblemBody {
  const body = res.body as ProblemBody;
  expect({ status: res.status, code: body?.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  return body;
}

/** errors[] without the localized message (field and issue), in the order of the answer. */
export const issuesOf = (body: Pick<ProblemBody, 'errors'>) =>
  (body.errors ?? []).map(({ field, issue }) => ({ field, issue }));

/** errors[] without the localized message, sorted by field. */
export const sortedIssuesOf = (body: Pick<ProblemBody, 'errors'>) =>
  issuesOf(body).sort((a, b) => a.field.localeCompare(b.field));

/** A query parameter's value; a function when it is only known once the suite's set-up has run (an id). */
type ParamValue = string | (() => string);

/**
 * One bad list query and what the 400 must name: the field (`errors[].field` is exactly `[field]`),
 * the field and its issue (`errors` is exactly `[{field, issue}]`), or `null` for the status and
 * code alone.
 */
export type BadListParams = [
  params: Record<string, ParamValue>,
  names: string | { field: string; issue: string } | null,
];

/**
 * Declares one test per case, in the describe block where it is called: `GET <path>?<params>` with
 * `call()`'s options answers 400 `invalid_parameter` as problem JSON, naming what the case says.
 * `api` and `call` are functions because the suite's `beforeAll` makes them.
 */
export function itRefusesBadListParams(
  api: () => TestApi,
  path: string,
  call: () => Call,
  cases: BadListParams[],
): void {
  const shown = (params: Record<string, ParamValue>) =>
    Object.entries(params)
      .map(([name, value]) => `${name}=${typeof value === 'function' ? '…' : value}`)
      .join('&');
  it.each(cases.map(([params, names]) => [shown(params), params, names] as const))(
    `GET ${path}?%s is a 400 invalid_parameter`,
    async (_shown, params, names) => {
      const query = Object.fromEntries(
        Object.entries(params).map(([name, value]) => [name, typeof value === 'function' ? value() : value]),
      );
      const res = await api().get<ProblemBody>(`${path}${qs(query)}`, call());
      const body = expectProblem(res, 400, 'invalid_parameter');
      if (typeof names === 'string')
        expect({ query, fields: issuesOf(body).map((e) => e.field) }).toEqual({ query, fields: [names] });
      else if (names) expect({ query, errors: issuesOf(body) }).toEqual({ query, errors: [names] });
    },
  );
}
