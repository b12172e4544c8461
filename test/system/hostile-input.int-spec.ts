import { createHash, randomUUID } from 'node:crypto';
import { Agent, IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { FORMAT_CATALOG } from '../../src/common/errors/catalog';
import { ID_PREFIX, parsePublicId } from '../../src/common/ids/id';
import { SCOPES } from '../../src/platform/auth/scopes';
import { OAuthCodesService } from '../../src/modules/oauth/oauth-codes.service';
import type { UserEntity } from '../../src/platform/users/user.entity';
import { TestApi } from '../support/api';
import { cancelPendingDeliveries, inTenant, newTenant, newToken, TestTenant, uniqueSlug } from '../support/factories';
import { FakeStripe } from '../support/fake-stripe';
import { waitFor } from '../support/wait';
import { listenOnLoopback } from '../support/fake-http-server';

/**
 * "Bad input gets a clear RFC 9457 error with a stable code; no 500 for anything a client can send."
 *
 * Every operation of the OpenAPI document (read from the running app, so a new route is covered
 * without touching this file) gets hostile path ids, query strings, bodies and headers. Each answer
 * must come back (no hang), below 500, and, when it is an error, as application/problem+json with a
 * string `code` and a body that matches the documented Problem schema. Failures are collected and
 * reported all at once: method, path, variation, status and the start of the body.
 */

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  parameters: { name: string; in: string; schema?: Schema; description?: string }[];
  body: Schema | null;
}
interface Variation {
  label: string;
  /** The path with its ids filled in (percent-encoded as wanted). */
  path?: string;
  /** Raw query string, sent as is. */
  query?: string;
  headers?: Record<string, string>;
  /** Raw body bytes; sent with Content-Type application/json unless headers say otherwise. */
  body?: string | Buffer;
}
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const VERBS = ['get', 'post', 'put', 'patch', 'delete'];
const TIMEOUT_MS = 10_000;
const CONCURRENCY = 8;
/** Where webhook URLs of the document's examples are pointed (loopback is allowed in this test; nothing listens on port 9). */
const LOOPBACK_URL = 'http://127.0.0.1:9/hooks';

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const deep = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const enc = encodeURIComponent;

/** Format names that read the same in every language (errors[].message's {format}). */
const TECHNICAL_FORMATS = new Set(['email', 'UUID', 'URL', 'ISO 8601', 'YYYY-MM-DD', 'ISO 3166-1 alpha-2', 'slug']);
const SPANISH_FORMATS = new Set(Object.values(FORMAT_CATALOG.es));

describe('hostile input on every operation of the OpenAPI document', () => {
  let api: TestApi;
  /** The payment processor's API (PUT /v1/settings/payment-processor calls it): a local fake, never the real one. */
  let stripe: FakeStripe;
  let server: Server;
  let port: number;
  let agent: Agent;
  let church: TestTenant;
  let other: TestTenant;
  let token: string;
  let document: { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
  let operations: Operation[];
  /** Ids of the records this file created (so a path id never names the caller's own token). */
  const created = new Set<string>();
  /** A real id per collection path ("/v1/members" -> "mem_…"), found through the API. */
  const realIds = new Map<string, string | null>();
  /** Real cursors per list path (for tampering). */
  const cursors = new Map<string, string[]>();
  let requestsSent = 0;

  // ------------------------------------------------------------------------------------------
  // Transport: raw HTTP, so that paths, query strings and bodies reach the server byte for byte.
  // ------------------------------------------------------------------------------------------

  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Answer | { error: string }> {
    requestsSent++;
    return new Promise((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (e) => resolve({ error: `response error ${e.message}` }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      req.on('error', (e) => resolve({ error: e.message }));
      if (body !== undefined) req.end(body);
      else req.end();
    });
  }

  /** Sends with the all-scopes token; a 429 of a per-token endpoint quota (tokens: 10 an hour) is retried once with a new token. */
  async function call(method: string, path: string, variation: Variation): Promise<Answer | { error: string }> {
    const build = () => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        'X-Tenant': church.slug,
        'Accept-Language': 'es',
        ...variation.headers,
      };
      if (variation.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json';
      for (const [k, v] of Object.entries(headers)) if (v === '\u0001omit') delete headers[k];
      return headers;
    };
    const url = path + (variation.query !== undefined ? `?${variation.query}` : '');
    let answer = await send(method, url, build(), variation.body);
    if (
      'status' in answer &&
      answer.status === 429 &&
      answer.headers['x-ratelimit-bucket'] !== 'minute' &&
      answer.headers['x-ratelimit-bucket'] !== 'day'
    ) {
      token = (await newToken(api, church, [...SCOPES])).token;
      answer = await send(method, url, build(), variation.body);
    }
    return answer;
  }

  /** The formats named in Spanish `invalid_format` messages that are neither translated nor a technical name. */
  function untranslatedFormats(body: { errors?: { issue?: string; message?: string }[] }): string[] {
    const formats = (body.errors ?? [])
      .filter((e) => e.issue === 'invalid_format')
      .map(
        (e) =>
          /^Este valor no tiene el formato esperado \((.*)\)\.$/.exec(e.message ?? '')?.[1] ?? `message ${e.message}`,
      );
    return formats.filter((f) => !SPANISH_FORMATS.has(f) && !TECHNICAL_FORMATS.has(f));
  }

  /** What is wrong with an answer, or null. */
  function judge(method: string, url: string, answer: Answer | { error: string }): string | null {
    if ('error' in answer) return `no answer: ${answer.error}`;
    const type = String(answer.headers['content-type'] ?? '');
    if (answer.status >= 500) return `status ${answer.status}`;
    if (answer.status < 400) {
      if (answer.status === 204 || answer.status === 304 || !type.startsWith('application/json')) return null;
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        return 'JSON answer that does not parse';
      }
      const problems = api.openapi.check(method, url, answer.status, type, body);
      return problems.length ? `answer not as documented: ${problems.join('; ')}` : null;
    }
    // The one exception to problem+json, status by status: an error the operation documents in another media type.
    // The OAuth pages answer HTML error pages (text/html); the token and revocation endpoints, RFC 6749 §5.2 bodies
    // (application/json, checked against their documented schema).
    const documented = documentedTypes(method, url, answer.status);
    if (type.startsWith('text/html') && documented.includes('text/html')) return null;
    if (type.startsWith('application/json') && documented.includes('application/json')) {
      let oauthBody: unknown;
      try {
        oauthBody = JSON.parse(answer.text);
      } catch {
        return 'JSON error body that does not parse';
      }
      const problems = api.openapi.check(method, url, answer.status, type, oauthBody);
      return problems.length ? `error not as documented: ${problems.join('; ')}` : null;
    }
    if (!type.startsWith('application/problem+json'))
      return `error without problem+json (content-type ${type || 'none'})`;
    let body: { code?: unknown; status?: unknown; errors?: { issue?: string; message?: string }[] };
    try {
      body = JSON.parse(answer.text);
    } catch {
      return 'problem body is not JSON';
    }
    if (typeof body.code !== 'string' || !/^[a-z_]+$/.test(body.code)) return 'problem without a string code';
    if (body.status !== answer.status)
      return `problem status ${String(body.status)} differs from HTTP ${answer.status}`;
    if (answer.headers['content-language'] === 'es') {
      const untranslated = untranslatedFormats(body);
      if (untranslated.length) return `Spanish message names a format in English: ${untranslated.join('; ')}`;
    }
    const problems = api.openapi.check(method, url, answer.status, type, body);
    return problems.length ? `problem not as documented: ${problems.join('; ')}` : null;
  }

  /** The media types the document gives for `status` of the operation at `url` (none when it does not document it). */
  function documentedTypes(method: string, url: string, status: number): string[] {
    const path = url.split('?')[0];
    const template = Object.keys(document.paths).find((t) =>
      new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    );
    const responses = (template ? document.paths[template][method.toLowerCase()]?.responses : undefined) as
      Record<string, { content?: Record<string, unknown> }> | undefined;
    return Object.keys(responses?.[String(status)]?.content ?? {});
  }

  async function run(op: Operation, variations: Variation[], failures: string[]): Promise<void> {
    const method = op.method.toUpperCase();
    let next = 0;
    const worker = async () => {
      while (next < variations.length) {
        const v = variations[next++];
        const path = v.path ?? fillPath(op);
        const answer = await call(method, path, v);
        const wrong = judge(method, path, answer);
        if (wrong) {
          const snippet = 'text' in answer ? answer.text.slice(0, 300) : '';
          failures.push(
            `${method} ${op.template} [${v.label}] -> ${'status' in answer ? answer.status : '-'} ${wrong} ${snippet}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  // ------------------------------------------------------------------------------------------
  // The document: operations, parameters, request schemas, examples.
  // ------------------------------------------------------------------------------------------

  function resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++)
      s = document.components.schemas[s.$ref.split('/').pop()!] ?? {};
    if (Array.isArray(s.allOf)) {
      const { allOf, ...rest } = s;
      return { ...(Object.assign({}, ...(allOf as Schema[]).map(resolve)) as Schema), ...rest };
    }
    return s;
  }

  type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any';
  function kindOf(schema: Schema | undefined): Kind {
    const s = resolve(schema);
    if (Array.isArray(s.enum)) return typeof s.enum[0] === 'number' ? 'number' : 'string';
    if (s.type === 'integer' || s.type === 'number') return 'number';
    if (s.type === 'string' || s.type === 'boolean' || s.type === 'array') return s.type;
    if (s.type === 'object' || s.properties) return 'object';
    return 'any';
  }

  function exampleOf(schema: Schema | undefined): unknown {
    const s = resolve(schema);
    if (typeof s.example === 'string') {
      if (/^https:\/\//.test(s.example)) return LOOPBACK_URL;
      // An id example (`whe_0192…`) becomes a real id of that kind when there is one, so the body can get past the lookup.
      const prefix = /^([a-z]+)_[0-9a-f]{32}$/.exec(s.example)?.[1];
      const real = prefix ? [...realIds.values()].find((id) => id?.startsWith(`${prefix}_`)) : undefined;
      return real ?? s.example;
    }
    if (s.example !== undefined) return s.example;
    if (s.default !== undefined) return s.default;
    if (Array.isArray(s.enum)) return s.enum[0];
    switch (s.type) {
      case 'string':
        return s.format === 'date-time' ? '2020-01-01T00:00:00Z' : s.format === 'date' ? '2000-01-01' : 'x';
      case 'integer':
      case 'number':
        return 1;
      case 'boolean':
        return true;
      case 'array':
        return [exampleOf(s.items as Schema)];
      default: {
        const props = (s.properties ?? {}) as Record<string, Schema>;
        return Object.fromEntries(((s.required ?? []) as string[]).map((name) => [name, exampleOf(props[name])]));
      }
    }
  }

  /** A body that passes validation when possible: the required properties with their examples. */
  function baseBody(op: Operation): Record<string, unknown> {
    const s = resolve(op.body ?? undefined);
    const props = (s.properties ?? {}) as Record<string, Schema>;
    return Object.fromEntries(((s.required ?? []) as string[]).map((name) => [name, exampleOf(props[name])]));
  }

  /** Every property of the request schema, and one level into nested objects and arrays of objects. */
  function slots(
    schema: Schema | null,
    path: (string | number)[] = [],
    depth = 0,
  ): { path: (string | number)[]; schema: Schema }[] {
    const props = Object.entries((resolve(schema ?? undefined).properties ?? {}) as Record<string, Schema>);
    return props.flatMap(([name, child]) => {
      const here = [...path, name];
      const r = resolve(child);
      const nested =
        depth >= 1
          ? []
          : r.properties
            ? slots(r, here, depth + 1)
            : r.type === 'array' && resolve(r.items as Schema).properties
              ? slots(resolve(r.items as Schema), [...here, 0], depth + 1)
              : [];
      return [{ path: here, schema: child }, ...nested];
    });
  }

  /** A copy of `node` with `value` at `path`; containers missing on the way are made (an array gets one object). */
  function setAt(node: unknown, path: (string | number)[], value: unknown): Record<string, unknown> {
    if (path.length === 0) return value as Record<string, unknown>;
    const [key, ...rest] = path;
    if (typeof key === 'number') {
      const list: unknown[] = Array.isArray(node) && node.length ? structuredClone(node) : [{}];
      list[key] = setAt(list[key] ?? {}, rest, value);
      return list as unknown as Record<string, unknown>;
    }
    const copy: Record<string, unknown> =
      typeof node === 'object' && node !== null && !Array.isArray(node) ? { ...(node as Record<string, unknown>) } : {};
    copy[key] = setAt(copy[key], rest, value);
    return copy;
  }

  const pathParams = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

  /** The template with every parameter replaced by a real id (or by `override` for one of them). */
  function fillPath(op: Operation, override?: { name: string; raw: string }): string {
    let path = op.template;
    for (const name of pathParams(op.template)) {
      const collection = path.slice(0, path.indexOf(`{${name}}`) - 1);
      const value = override?.name === name ? override.raw : enc(realIds.get(collection) ?? 'none');
      path = path.replace(`{${name}}`, value);
    }
    return path;
  }

  async function discoverIds(): Promise<void> {
    for (const op of operations) {
      let path = op.template;
      for (const name of pathParams(op.template)) {
        const collection = path.slice(0, path.indexOf(`{${name}}`) - 1);
        if (!realIds.has(collection)) {
          const res = await send('GET', `${collection}?limit=250`, {
            Authorization: `Bearer ${token}`,
            'X-Tenant': church.slug,
          });
          const ids =
            'text' in res && res.status === 200
              ? ((JSON.parse(res.text) as { data?: { id?: string }[] }).data ?? [])
                  .map((r) => r.id)
                  .filter((id): id is string => typeof id === 'string')
              : [];
          realIds.set(collection, ids.find((id) => created.has(id)) ?? ids[0] ?? null);
        }
        path = path.replace(`{${name}}`, realIds.get(collection) ?? 'none');
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // Variations
  // ------------------------------------------------------------------------------------------

  function pathVariations(op: Operation): Variation[] {
    const out: Variation[] = [];
    const others = [...realIds.values()].filter((id): id is string => !!id);
    for (const name of pathParams(op.template)) {
      const collection = fillPath({ ...op, template: op.template.slice(0, op.template.indexOf(`{${name}}`) - 1) });
      const real = realIds.get(collection) ?? others[0] ?? 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f';
      const [prefix, hex = ''] = real.split('_');
      const uuid =
        hex.length === 32
          ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
          : randomUUID();
      const foreign = others.find((id) => !id.startsWith(`${prefix}_`)) ?? `zzz_${hex}`;
      const raws: [string, string][] = [
        ['garbage', 'garbage'],
        ['zero', '0'],
        ['negative', '-1'],
        ['uuid without prefix', uuid],
        ['hex without prefix', hex],
        ['prefixed id of another resource type', enc(foreign)],
        ['this body with another prefix', `${foreign.split('_')[0]}_${hex}`],
        ['prefix only', `${prefix}_`],
        ['prefix with uuid body', `${prefix}_${uuid}`],
        ['prefix with uppercase body', `${prefix}_${hex.toUpperCase()}`],
        ['prefix with non-hex body', `${prefix}_${'z'.repeat(32)}`],
        ['prefix with short body', `${prefix}_${hex.slice(1)}`],
        ['real id with a suffix', `${real}x`],
        ['very long string', `${prefix}_${'a'.repeat(6000)}`],
        ['%00', '%00'],
        ['id then %00', `${real}%00`],
        ['%ZZ', '%ZZ'],
        ['lone %', '%'],
        ['%2F (encoded slash)', `${prefix}%2F${hex}`],
        ['%2e%2e', '%2e%2e'],
        ['overlong utf-8 %C0%AF', '%C0%AF'],
        ['invalid utf-8 %FF%FE', '%FF%FE'],
        ['emoji', '%F0%9F%92%A9'],
        ['sql', enc("' OR 1=1 --")],
        ['__proto__', '__proto__'],
        ['constructor', 'constructor'],
      ];
      for (const [label, raw] of raws)
        out.push({
          label: `path ${name}: ${label}`,
          path: fillPath(op, { name, raw }),
          body: op.body ? JSON.stringify(baseBody(op)) : undefined,
        });
    }
    return out;
  }

  function queryVariations(op: Operation): Variation[] {
    const body = op.body ? JSON.stringify(baseBody(op)) : undefined;
    const sort = op.parameters.find((p) => p.in === 'query' && p.name === 'sort');
    const sortable =
      /Sortable: ([a-z_, ]+)/
        .exec(sort?.description ?? '')?.[1]
        .split(',')
        .map((s) => s.trim()) ?? [];
    const filters = op.parameters.filter(
      (p) => p.in === 'query' && !['cursor', 'limit', 'sort', 'total'].includes(p.name),
    );
    const uuid = randomUUID();
    const queries: [string, string][] = [
      ['limit=abc', 'limit=abc'],
      ['limit=-1', 'limit=-1'],
      ['limit=0', 'limit=0'],
      ['limit=1e9', 'limit=1e9'],
      ['limit=1.5', 'limit=1.5'],
      ['limit=99999999999999999999', 'limit=99999999999999999999'],
      ['limit empty', 'limit='],
      ['limit bare', 'limit'],
      ['limit=%00', 'limit=%00'],
      ['limit[gte]=1', 'limit%5Bgte%5D=1'],
      ['limit=1&limit=2', 'limit=1&limit=2'],
      ['cursor=garbage', 'cursor=garbage'],
      ['cursor=%ZZ', 'cursor=%ZZ'],
      ['cursor=%00', 'cursor=%00'],
      ['cursor=a&cursor=b', 'cursor=a&cursor=b'],
      ['cursor long', `cursor=${'A'.repeat(8000)}`],
      ['cursor base64 of junk text', `cursor=${b64('not json at all')}`],
      ['cursor base64 of an object', `cursor=${b64('{"sort":"created_at","values":[],"id":"x"}')}`],
      ['cursor base64 of numbers', `cursor=${b64('[1,2,3]')}`],
      ['cursor base64 of null', `cursor=${b64('null')}`],
      ['cursor base64 with a bad uuid', `cursor=${b64('["created_at",["2024-01-01T00:00:00.000Z"],"not-a-uuid"]')}`],
      ['cursor base64 with deep nesting', `cursor=${b64(`["created_at",[${deepArray(3000)}],"${uuid}"]`)}`],
      ['sort=???', `sort=${enc('???')}`],
      ['sort=-nonexistent', 'sort=-nonexistent'],
      ['sort empty', 'sort='],
      ['sort=-', 'sort=-'],
      ['sort=,,,', 'sort=,,,'],
      ['sort=%00', 'sort=%00'],
      ['sort=a&sort=b', 'sort=created_at&sort=-created_at'],
      ['sort=constructor', 'sort=constructor'],
      ['sort=__proto__', 'sort=__proto__'],
      ['sort=-toString', 'sort=-toString'],
      ['sort=hasOwnProperty', 'sort=hasOwnProperty'],
      ['total=maybe', 'total=maybe'],
      ['total=1&total=2', 'total=true&total=false'],
      ['age[gte][x]=1', 'age%5Bgte%5D%5Bx%5D=1'],
      ['unknown field[foo]=1', 'shoe_size%5Bfoo%5D=1'],
      ['unknown filter', 'shoe_size=42'],
      ['constructor=1', 'constructor=1'],
      ['constructor[in]=a', 'constructor%5Bin%5D=a'],
      ['__proto__[gte]=1', '__proto__%5Bgte%5D=1'],
      ['toString[in]=1', 'toString%5Bin%5D=1'],
      ['valueOf[gt]=1', 'valueOf%5Bgt%5D=1'],
      ['hasOwnProperty=1', 'hasOwnProperty=1'],
      ['access_token=x', 'access_token=x'],
      ['empty key', '=1'],
      ['only &', '&&&'],
      ['%ZZ key', '%ZZ=1'],
      ['bracket junk', '%5B%5D=1&a%5B=1&%5D=1'],
      ['many parameters', Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&')],
    ];
    for (const field of sortable) {
      queries.push([`sort=${field},${field}`, `sort=${field},-${field}`]);
      for (const cursor of cursors
        .get(op.template)
        ?.filter((c) => c.startsWith(`${field}:`))
        .map((c) => c.slice(field.length + 1)) ?? []) {
        queries.push(
          ...tamperedCursors(cursor).map(([label, raw]): [string, string] => [
            `sort=${field} with ${label}`,
            `sort=${enc(field)}&cursor=${raw}`,
          ]),
        );
      }
    }
    for (const cursor of cursors
      .get(op.template)
      ?.filter((c) => c.startsWith(':'))
      .map((c) => c.slice(1)) ?? [])
      queries.push(...tamperedCursors(cursor));
    for (const p of filters) {
      const name = p.name.replace('[', '%5B').replace(']', '%5D');
      const values = [
        '%00',
        'a%00b',
        '%ZZ',
        '',
        'x'.repeat(5000),
        '-1',
        '1e999',
        '99999999999',
        '-99999999999',
        '1.5',
        'true',
        'null',
        '2024-02-30',
        '0000-01-01',
        '9999-12-31T23:59:59Z',
        '%2B275760-09-13',
        `${'a,'.repeat(500)}a`,
        ',',
        '*',
        enc("' OR 1=1 --"),
        enc('%_\\'),
      ];
      for (const value of values)
        queries.push([
          `${p.name}=${value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value}`,
          `${name}=${value}`,
        ]);
      queries.push([`${p.name} twice`, `${name}=a&${name}=b`]);
      queries.push([`${p.name}[foo]=1 (unknown operator)`, `${name}%5Bfoo%5D=1`]);
      queries.push([`${p.name}[gte][x]=1 (nested brackets)`, `${name}%5Bgte%5D%5Bx%5D=1`]);
      queries.push([`${p.name}[] =1`, `${name}%5B%5D=1`]);
    }
    return queries.map(([label, query]) => ({ label: `query ${label}`, query, body }));
  }

  /** A real next_cursor, decoded and changed: wrong types, NUL characters, huge values. */
  function tamperedCursors(cursor: string): [string, string][] {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    // A change-log cursor (histories, the changes feed) is `<version>.<position>.<seq>`, not a list's JSON.
    if (!text.startsWith('[')) return tamperedPositionCursors(cursor, text);
    const [sort, values, id] = JSON.parse(text) as [string, unknown[], string];
    const withValues = (v: unknown) => b64(JSON.stringify([sort, values.map(() => v), id]));
    return [
      ['real cursor (control)', cursor],
      ['cursor with NUL in its values', withValues('a\u0000b')],
      ['cursor with NUL in its id', b64(JSON.stringify([sort, values, `${id.slice(0, 8)}\u0000${id.slice(9)}`]))],
      ['cursor with number values', withValues(1e308)],
      ['cursor with object values', withValues({ a: 1 })],
      ['cursor with array values', withValues([1])],
      ['cursor with a huge string value', withValues('x'.repeat(5000))],
      ['cursor with a far date', withValues('+275760-09-13T00:00:00.000Z')],
      ['cursor with an impossible date', withValues('2024-02-30T00:00:00.000Z')],
      ['cursor with too many values', b64(JSON.stringify([sort, [...values, ...values, 'x'], id]))],
      ['cursor with a nil uuid', b64(JSON.stringify([sort, values, '00000000-0000-0000-0000-000000000000']))],
      ['cursor with an uppercase uuid', b64(JSON.stringify([sort, values, id.toUpperCase()]))],
    ].map(([label, raw]) => [label, enc(raw)] as [string, string]);
  }

  function tamperedPositionCursors(cursor: string, text: string): [string, string][] {
    return [
      ['real cursor (control)', cursor],
      ['cursor with NUL', b64(`${text}\u0000`)],
      ['cursor with huge numbers', b64(text.replace(/\d+/g, '9'.repeat(40)))],
      ['cursor with negative numbers', b64(text.replace(/\d+$/, '-1'))],
      ['cursor with letters for digits', b64(text.replace(/\d/g, 'x'))],
      ['cursor with an extra part', b64(`${text}.1`)],
      ['cursor of another version', b64(`9${text.slice(1)}`)],
      ['cursor cut short', cursor.slice(0, -3)],
    ].map(([label, raw]) => [label, enc(raw)] as [string, string]);
  }

  function bodyVariations(op: Operation): Variation[] {
    const base = baseBody(op);
    const json = (value: unknown) => JSON.stringify(value);
    const out: Variation[] = [];
    const raw = (label: string, body: string | Buffer, headers?: Record<string, string>) =>
      out.push({ label: `body ${label}`, body, headers });
    raw('invalid JSON (truncated)', '{"a":');
    raw('invalid JSON (single quotes)', "{'a': 1}");
    raw('invalid JSON (trailing comma)', '{"a": 1,}');
    raw('invalid JSON (NaN)', '{"a": NaN}');
    raw('invalid JSON (lone surrogate escape)', '{"a": "\\ud800"}');
    raw('invalid JSON (bad escape)', '{"a": "\\x41"}');
    raw('invalid JSON (BOM)', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json(base))]));
    raw(
      'invalid UTF-8 bytes in a string',
      Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('"}')]),
    );
    raw('empty body with a JSON content type', '');
    raw('whitespace only', '   ');
    raw('JSON array', '[]');
    raw('JSON array of objects', json([base, base]));
    raw('JSON number', '42');
    raw('JSON null', 'null');
    raw('JSON string', '"hello"');
    raw('JSON true', 'true');
    raw(
      'duplicate keys',
      `{${
        Object.keys(base)
          .map((k) => `"${k}": 1, "${k}": ${json(base[k])}`)
          .join(',') || '"a":1,"a":2'
      }}`,
    );
    raw('unknown extra field', json({ ...base, zz_unknown_field: 1 }));
    raw(
      '__proto__ key',
      `{"__proto__": {"polluted": true}${Object.keys(base).length ? `, ${json(base).slice(1, -1)}` : ''}}`,
    );
    raw('constructor key', json({ ...base, constructor: { prototype: { polluted: true } } }));
    raw('key with NUL', json({ ...base, 'a\u0000b': 1 }));
    raw(`deeply nested object (depth 5000) as an unknown field`, `{"deep": ${deep(5000)}}`);
    raw(`deeply nested object (depth 5000) with an Idempotency-Key`, `{"deep": ${deep(5000)}}`, {
      'Idempotency-Key': randomUUID(),
    });
    raw(`deeply nested array (depth 100,000) with an Idempotency-Key`, deepArray(100_000), {
      'Idempotency-Key': randomUUID(),
    });
    raw('NUL in a string, with an Idempotency-Key', json({ ...base, zz: '\u0000' }), {
      'Idempotency-Key': randomUUID(),
    });
    raw(`deeply nested array (depth 5000) as the body`, deepArray(5000));
    raw('a million-element array as the body', `[${'0,'.repeat(999_999)}0]`);
    raw('wrong content type text/plain', json(base), { 'Content-Type': 'text/plain' });
    raw('wrong content type form', json(base), { 'Content-Type': 'application/x-www-form-urlencoded' });
    raw('wrong content type multipart', json(base), { 'Content-Type': 'multipart/form-data; boundary=x' });
    raw('wrong content type xml', json(base), { 'Content-Type': 'application/xml' });
    raw('content type garbage', json(base), { 'Content-Type': '%%%;;;==' });
    raw('content type missing', json(base), { 'Content-Type': '\u0001omit' });
    raw('charset latin1', json(base), { 'Content-Type': 'application/json; charset=latin1' });
    raw('charset utf-7', json(base), { 'Content-Type': 'application/json; charset=utf-7' });
    raw('charset garbage', json(base), { 'Content-Type': 'application/json; charset=%%%' });
    raw('content-encoding gzip with plain bytes', json(base), { 'Content-Encoding': 'gzip' });
    raw('content-encoding unknown', json(base), { 'Content-Encoding': 'zstd-x' });
    raw('vendor +json type', json(base), { 'Content-Type': 'application/vnd.church+json' });

    for (const slot of slots(op.body)) {
      const kind = kindOf(slot.schema);
      const name = slot.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
        .join('')
        .slice(1);
      const wrong: [string, string][] = [];
      const add = (label: string, value: unknown) => wrong.push([label, json(setAt(base, slot.path, value))]);
      /** For values JSON.stringify cannot write (1e309, depth 5000): a placeholder replaced in the text. */
      const addRaw = (label: string, text: string) =>
        wrong.push([label, json(setAt(base, slot.path, '\u0001raw')).replace('"\\u0001raw"', text)]);
      if (kind === 'string' || kind === 'any') {
        add('123', 123);
        add('{}', {});
        add('[]', []);
        add('true', true);
        add('100k-char string', 'x'.repeat(100_000));
        add('empty string', '');
        const example = exampleOf(slot.schema);
        add('NUL character', `${typeof example === 'string' ? example : 'x'}\u0000`);
        add('only NUL', '\u0000');
        add('lone surrogate', '\ud800');
        add('lone surrogate in an e-mail-like value', 'a\udc00@example.org');
      }
      if (kind === 'number' || kind === 'any') {
        add('"x"', 'x');
        add('1e308', 1e308);
        add('-1e308', -1e308);
        addRaw('1e309 (Infinity)', '1e309');
        add('1.5', 1.5);
        add('-1', -1);
      }
      if (kind === 'boolean' || kind === 'any') {
        add('"true"', 'true');
        add('1', 1);
        add('{}', {});
      }
      if (kind === 'array' || kind === 'any') {
        add('"x"', 'x');
        add('{}', {});
        add(
          '10,000 items',
          Array.from({ length: 10_000 }, () => exampleOf((resolve(slot.schema).items as Schema) ?? {}) ?? 'x'),
        );
        add('array of nulls', [null, null]);
        add('array of arrays', [[[]]]);
        add('array with NUL strings', ['\u0000']);
        add('array of objects', [{}, { a: 1 }]);
      }
      if (kind === 'object' || kind === 'any') {
        add('[]', []);
        add('"x"', 'x');
        add('42', 42);
        add('object with NUL in a value', { a: '\u0000' });
        add('object with NUL in a key', { 'a\u0000': 1 });
        add('object with an unknown key', { zz_unknown: 1 });
        addRaw('deeply nested (depth 5000)', deep(5000));
      }
      add('null', null);
      for (const [label, body] of wrong) out.push({ label: `body ${name}: ${label}`, body });
    }
    return out;
  }

  function headerVariations(op: Operation): Variation[] {
    const body = op.body ? JSON.stringify(baseBody(op)) : undefined;
    const headers: [string, Record<string, string>][] = [
      ['Idempotency-Key garbage', { 'Idempotency-Key': 'garbage' }],
      ['Idempotency-Key empty', { 'Idempotency-Key': '' }],
      ['Idempotency-Key long', { 'Idempotency-Key': 'k'.repeat(4000) }],
      ['Idempotency-Key uuid v1', { 'Idempotency-Key': 'a8098c1a-f86e-11da-bd1a-00112444be1e' }],
      ['Idempotency-Key uppercase v4', { 'Idempotency-Key': randomUUID().toUpperCase() }],
      ['If-None-Match garbage', { 'If-None-Match': 'garbage' }],
      ['If-None-Match *', { 'If-None-Match': '*' }],
      ['If-None-Match weak', { 'If-None-Match': 'W/"x", "y", ,,' }],
      ['If-None-Match unbalanced quote', { 'If-None-Match': '"' }],
      ['If-Match garbage', { 'If-Match': 'garbage' }],
      ['If-Modified-Since garbage', { 'If-Modified-Since': 'yesterday' }],
      ['X-Tenant of another church', { 'X-Tenant': other.slug }],
      ['X-Tenant of no church', { 'X-Tenant': uniqueSlug('nowhere') }],
      ['X-Tenant empty', { 'X-Tenant': '' }],
      ['X-Tenant long', { 'X-Tenant': 't'.repeat(4000) }],
      ['X-Tenant junk', { 'X-Tenant': "../' OR 1=1 --%00" }],
      ['X-Tenant upper case', { 'X-Tenant': church.slug.toUpperCase() }],
      ['Accept-Language garbage', { 'Accept-Language': ';;;q=abc,,, ,=,*-*' }],
      ['Accept-Language q junk', { 'Accept-Language': 'en;q=NaN, pt;q=-1, es;q=1e999' }],
      ['Accept-Language long', { 'Accept-Language': `${'xx-YY;q=0.1,'.repeat(300)}fr` }],
      ['Accept-Language *', { 'Accept-Language': '*' }],
      ['Authorization garbage', { Authorization: 'Bearer garbage' }],
      ['Authorization Basic', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['Authorization long', { Authorization: `Bearer chp_${'A'.repeat(4000)}` }],
      ['Authorization empty bearer', { Authorization: 'Bearer ' }],
      ['Origin junk', { Origin: 'null' }],
      ['X-Forwarded-For junk', { 'X-Forwarded-For': 'not-an-ip, , ::::' }],
      ['Range junk', { Range: 'bytes=junk' }],
    ];
    return headers.map(([label, h]) => ({ label: `header ${label}`, headers: h, body }));
  }

  const label = (op: Operation) => `${op.method.toUpperCase()} ${op.template}`;

  // ------------------------------------------------------------------------------------------
  // Set-up: a church with one record of every kind that has an id route.
  // ------------------------------------------------------------------------------------------

  beforeAll(async () => {
    // TypeORM logs each refused statement (e.g. the unique index settling concurrent creates of one campus key) to console.log.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    stripe = await FakeStripe.start();
    stripe.acceptAnyKey();
    api = await TestApi.start({
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
      PAYMENTS_API_URL: stripe.url,
    });
    server = api.app.getHttpServer();
    port = await listenOnLoopback(server);
    agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    // Enterprise plan (the factory's default): its burst of 10,000 covers every request of this file.
    church = await newTenant(api);
    other = await newTenant(api);
    const caller = await newToken(api, church, [...SCOPES]);
    token = caller.token;
    const served = await send('GET', '/v1/openapi.json', {});
    if (!('status' in served) || served.status !== 200) throw new Error('GET /v1/openapi.json failed');
    document = JSON.parse(served.text);

    const make = async (path: string, body: unknown) => {
      const res = await send(
        'POST',
        path,
        { Authorization: `Bearer ${token}`, 'X-Tenant': church.slug, 'Content-Type': 'application/json' },
        JSON.stringify(body),
      );
      if (!('status' in res) || res.status >= 300)
        throw new Error(`set-up ${path} failed: ${JSON.stringify(res).slice(0, 500)}`);
      const id = (JSON.parse(res.text) as { id?: string }).id;
      if (id) created.add(id);
      return id;
    };
    await make('/v1/campuses', { key: 'hostile-campus', name: 'Hostile Campus' });
    await make('/v1/webhook-endpoints', { url: LOOPBACK_URL, events: ['member.created'] });
    for (const name of ['Ana', 'Bea', 'Cid'])
      await make('/v1/members', {
        first_name: name,
        last_name: 'Ruiz',
        birthdate: '1990-01-02',
        campus: 'hostile-campus',
      });
    await make('/v1/devices', { name: 'Kiosk', campus: 'hostile-campus' });
    await make('/v1/devices', { name: 'Kiosk 2' });
    await make('/v1/custom-fields', {
      key: 'hostile_field',
      label: 'Hostile field',
      type: 'select',
      options: ['a', 'b'],
    });
    // {tag} of /v1/members/{id}/tags/{tag} has no list under the member: a real tag for each member made here.
    const tagId = await make('/v1/tags', { name: 'Hostile tag', color: 'red' });
    for (const id of [...created].filter((c) => c.startsWith('mem_')))
      realIds.set(`/v1/members/${id}/tags`, tagId ?? null);
    await make('/v1/prospects', {
      first_name: 'Ana',
      last_name: 'Prospecto',
      campus: 'hostile-campus',
      follow_up_on: '2026-02-01',
    });
    await make('/v1/prospects', { first_name: 'Bea', last_name: 'Prospecto', source: 'visit' });
    // {member_id} of /v1/households/{id}/members/{member_id} has no list: a member put in each household made here.
    const householdMembers = [...created].filter((c) => c.startsWith('mem_'));
    for (const [i, name] of ['Hostile household', 'Hostile household 2'].entries()) {
      const householdId = await make('/v1/households', {
        name,
        primary_contact_id: householdMembers[i],
        address: { city: 'Lima', country: 'PE' },
      });
      await make(`/v1/households/${householdId}/members`, { member_id: householdMembers[i], household_role: 'head' });
      realIds.set(`/v1/households/${householdId}/members`, householdMembers[i]);
    }
    // A cell group with a member in it: {member_id} of /v1/groups/{id}/members/{member_id} is found through the group's members list.
    const groupId = await make('/v1/groups', {
      name: 'Hostile group',
      campus: 'hostile-campus',
      meeting_day: 'thursday',
      meeting_time: '19:30',
      capacity: 20,
    });
    const joined = await send(
      'PUT',
      `/v1/groups/${groupId}/members/${householdMembers[0]}`,
      { Authorization: `Bearer ${token}`, 'X-Tenant': church.slug, 'Content-Type': 'application/json' },
      '{"group_role":"leader"}',
    );
    if (!('status' in joined) || joined.status !== 200)
      throw new Error(`set-up: putting a member in the group failed: ${JSON.stringify(joined).slice(0, 500)}`);
    await make('/v1/batches', { description: 'Hostile batch', currency: 'USD', expected_total: 1000 });
    // A calendar event (made first, so the {id} routes use it) with a guest's registration: {reg} of /v1/events/{id}/registrations/{reg}.
    const registeredEvent = await make('/v1/events', {
      name: 'Hostile retreat',
      starts_at: '2026-03-07T09:00',
      ends_at: '2026-03-07T17:00',
      timezone: 'America/Lima',
      capacity: 50,
    });
    await make(`/v1/events/${registeredEvent}/registrations`, {
      guest: { first_name: 'Ana', last_name: 'Invitada', email: 'ana.invitada@example.org' },
    });
    // An attendance record (att_) of a member at an event: {id} of /v1/attendance/{id}.
    const attendedEvent = await make('/v1/events', {
      name: 'Hostile service',
      starts_at: '2026-03-01T10:00:00-06:00',
      ends_at: '2026-03-01T12:00:00-06:00',
    });
    await make('/v1/attendance', { member_id: householdMembers[0], event_id: attendedEvent, kind: 'volunteer' });
    // A kiosk check-in (no list route): {id} of /v1/check-ins/{id}/checkout.
    realIds.set(
      '/v1/check-ins',
      (await make('/v1/check-ins', { event_id: attendedEvent, member_ids: [householdMembers[1]] })) ?? null,
    );
    await make('/v1/prayer-requests', { request: 'Hostile prayer', name: 'Ana', campus: 'hostile-campus' });
    await make('/v1/prayer-requests', { request: 'Hostile prayer 2', name: 'Bea', visibility: 'private' });
    // Recurring gifts and pledges name a donor (a member made above) and a fund of their own.
    const donor = [...created].find((c) => c.startsWith('mem_'));
    const giftFund = await make('/v1/funds', { name: 'Hostile recurring fund' });
    for (const interval of ['month', 'week']) {
      await make('/v1/recurring-gifts', {
        donor_id: donor,
        amount: 5000,
        currency: 'USD',
        fund_id: giftFund,
        interval,
        start_on: '2026-01-01',
      });
    }
    for (const ends_on of ['2026-12-31', '2027-06-30']) {
      await make('/v1/pledges', {
        donor_id: donor,
        fund_id: giftFund,
        amount: 100000,
        currency: 'USD',
        starts_on: '2026-01-01',
        ends_on,
      });
    }
    // A statement: a gift of last year by that donor, then a statements run, worked in the background before the ids are looked up.
    const lastYear = new Date().getUTCFullYear() - 1;
    await make('/v1/donations', {
      amount: 2500,
      currency: 'USD',
      fund_id: giftFund,
      donor_id: donor,
      method: 'cash',
      received_at: `${lastYear}-06-01T12:00:00Z`,
    });
    const runId = await make('/v1/statements', { year: lastYear });
    realIds.set('/v1/statement-runs', runId ?? null);
    await waitFor(
      () => send('GET', `/v1/statement-runs/${runId}`, { Authorization: `Bearer ${token}`, 'X-Tenant': church.slug }),
      {
        what: `set-up: statement run ${runId} to finish`,
        timeout: 20_000,
        until: (run) => 'text' in run && (JSON.parse(run.text) as { status?: string }).status === 'done',
      },
    );
    // A notification, scheduled so that it stays queued ({id} of /v1/notifications/{id}, cancel included), and a push
    // token of each member made here ({token_id} of /v1/members/{id}/push-tokens/{token_id}).
    await make('/v1/notifications', {
      title: 'Hostile notice',
      body: 'Hi',
      audience: { member_ids: [donor] },
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    for (const id of [...created].filter((c) => c.startsWith('mem_')))
      await make(`/v1/members/${id}/push-tokens`, { token: `hostile-token-${id}`, platform: 'web' });
    // {tenant} of /v1/webhooks/payments/{tenant} is a church key, not a listed id; the church's processor is connected
    // (at the fake), so that the inbound events get as far as the signature check.
    realIds.set('/v1/webhooks/payments', church.slug);
    const connected = await send(
      'PUT',
      '/v1/settings/payment-processor',
      { Authorization: `Bearer ${token}`, 'X-Tenant': church.slug, 'Content-Type': 'application/json' },
      JSON.stringify({ provider: 'stripe', api_key: 'sk_test_hostile0000000000' }),
    );
    if (!('status' in connected) || connected.status !== 200)
      throw new Error(`set-up: connecting the payment processor failed: ${JSON.stringify(connected).slice(0, 500)}`);
    await make('/v1/auth/tokens', { name: 'path id', scopes: ['read:members'] });
    await make('/v1/auth/tokens', { name: 'path id 2', scopes: ['read:members'] });
    // An OAuth client, and the caller's authorization of it ({client_id} of /v1/oauth/authorizations/{client_id}): a code
    // issued as the consent page issues it, exchanged at the token endpoint.
    await authorizeApp(
      await make('/v1/oauth/clients', { name: 'Hostile app', redirect_uris: [LOOPBACK_URL], scopes: ['read:members'] }),
      caller.user,
    );

    operations = Object.entries(document.paths).flatMap(([template, item]) =>
      VERBS.filter((v) => item[v]).map((method) => {
        const op = item[method] as {
          parameters?: Operation['parameters'];
          requestBody?: { content?: Record<string, { schema?: Schema }> };
        };
        return {
          method,
          template,
          parameters: op.parameters ?? [],
          body: op.requestBody?.content?.['application/json']?.schema ?? null,
        };
      }),
    );
    await discoverIds();

    // Real next_cursors of every list (limit=1), for the default sort and each sortable field.
    for (const op of operations.filter((o) => o.method === 'get' && o.parameters.some((p) => p.name === 'cursor'))) {
      const sort = op.parameters.find((p) => p.name === 'sort');
      const sortable =
        /Sortable: ([a-z_, ]+)/
          .exec(sort?.description ?? '')?.[1]
          .split(',')
          .map((x) => x.trim()) ?? [];
      const found: string[] = [];
      for (const field of ['', ...sortable]) {
        const res = await send('GET', `${fillPath(op)}?limit=1${field ? `&sort=${field}` : ''}`, {
          Authorization: `Bearer ${token}`,
          'X-Tenant': church.slug,
        });
        const next =
          'text' in res && res.status === 200
            ? (JSON.parse(res.text) as { next_cursor?: string | null }).next_cursor
            : null;
        if (next) found.push(`${field}:${next}`);
      }
      cursors.set(op.template, found);
    }
  }, 60_000);

  async function authorizeApp(clientId: string | undefined, user: UserEntity): Promise<void> {
    const verifier = randomUUID() + randomUUID();
    const code = await inTenant(api, church.id, () =>
      api.app.get(OAuthCodesService).issue({
        clientId: parsePublicId(ID_PREFIX.oauthClient, clientId)!,
        userId: user.id,
        scopes: ['read:members'],
        redirectUri: LOOPBACK_URL,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      }),
    );
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_URL,
      code_verifier: verifier,
      client_id: clientId!,
    });
    const exchanged = await send(
      'POST',
      '/v1/oauth/token',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      form.toString(),
    );
    if (!('status' in exchanged) || exchanged.status !== 200)
      throw new Error(`set-up: the OAuth code exchange failed: ${JSON.stringify(exchanged).slice(0, 500)}`);
  }

  afterAll(async () => {
    if (church) await cancelPendingDeliveries(api, [church.id, other.id]);
    agent?.destroy();
    await api?.close();
    await stripe?.close();
    jest.restoreAllMocks();
  });

  // ------------------------------------------------------------------------------------------
  // The tests
  // ------------------------------------------------------------------------------------------

  it('the document lists the operations, and the set-up found a real id for every id route', () => {
    const keys = operations.map(label);
    expect(keys.length).toBeGreaterThanOrEqual(30);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /v1/members',
        'POST /v1/members',
        'PATCH /v1/members/{id}',
        'DELETE /v1/webhook-endpoints/{id}',
        'PUT /v1/settings/cors',
      ]),
    );
    const missing = [...realIds.entries()].filter(([, id]) => !id).map(([collection]) => collection);
    expect(missing).toEqual([]);
    expect(cursors.get('/v1/members')?.length).toBeGreaterThan(1);
  });

  describe('each 5xx this file found, now a client error with a stable code', () => {
    interface Problem {
      code?: string;
      errors?: { field: string; issue: string; message: string }[];
    }
    async function ask(
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; type: string; body: Problem & Record<string, unknown> }> {
      const answer = await call(method, path, {
        label: 'focused',
        body:
          body === undefined
            ? undefined
            : typeof body === 'string' || Buffer.isBuffer(body)
              ? body
              : JSON.stringify(body),
        headers,
      });
      if (!('status' in answer)) throw new Error(`${method} ${path}: ${answer.error}`);
      return {
        status: answer.status,
        type: String(answer.headers['content-type']),
        body: answer.text ? JSON.parse(answer.text) : {},
      };
    }
    /** status, code and the [field, issue] pairs of errors[]. */
    const outline = (res: Awaited<ReturnType<typeof ask>>) => ({
      status: res.status,
      problem: res.type.startsWith('application/problem+json'),
      code: res.body.code,
      errors: res.body.errors?.map((e) => [e.field, e.issue]),
    });
    const problem = (status: number, code: string, errors?: [string, string][]) => ({
      status,
      problem: true,
      code,
      errors,
    });
    const cursorOf = async (path: string) => {
      const res = await ask('GET', path);
      const next = res.body.next_cursor as string;
      expect(typeof next).toBe('string');
      return JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as [string, unknown[], string];
    };

    it('a list sort or filter named like an Object.prototype member is unknown (sort=constructor reached SQL as "ORDER BY m.undefined")', async () => {
      const cases: [string, string, string][] = [
        ['/v1/members?sort=constructor', 'sort', 'not_sortable'],
        ['/v1/campuses?sort=-toString', 'sort', 'not_sortable'],
        ['/v1/audit-log?sort=__proto__', 'sort', 'not_sortable'],
        ['/v1/members?constructor=1', 'constructor', 'not_filterable'],
        ['/v1/devices?constructor%5Bin%5D=a', 'constructor[in]', 'not_filterable'],
        ['/v1/webhook-events?__proto__%5Bgte%5D=1', '__proto__[gte]', 'not_filterable'],
      ];
      for (const [path, field, issue] of cases)
        expect({ path, ...outline(await ask('GET', path)) }).toEqual({
          path,
          ...problem(400, 'invalid_parameter', [[field, issue]]),
        });
    });

    it('NUL in a list filter value is a 400 naming the filter (PostgreSQL refused it: invalid byte sequence 0x00)', async () => {
      const cases: [string, string][] = [
        ['/v1/members?q=%00', 'q'],
        ['/v1/members?email=a%00b', 'email'],
        ['/v1/members?campus%5Bin%5D=north,%00', 'campus[in]'],
        ['/v1/campuses?key=a%00b', 'key'],
        ['/v1/audit-log?resource_id=%00', 'resource_id'],
      ];
      for (const [path, field] of cases)
        expect({ path, ...outline(await ask('GET', path)) }).toEqual({
          path,
          ...problem(400, 'invalid_parameter', [[field, 'invalid_format']]),
        });
    });

    it('a cursor holding NUL in a text value, or an impossible timestamp or date, is a 400 on `cursor`', async () => {
      const [sort, values, id] = await cursorOf('/v1/members?sort=last_name&limit=1');
      const nul = Buffer.from(JSON.stringify([sort, values.map(() => 'Ruiz\u0000'), id])).toString('base64url');
      expect(outline(await ask('GET', `/v1/members?sort=last_name&cursor=${nul}`))).toEqual(
        problem(400, 'invalid_parameter', [['cursor', 'invalid']]),
      );
      const [sort2, , id2] = await cursorOf('/v1/members?limit=1');
      // Date.parse reads Feb 30 as March 1; PostgreSQL refused it (a 400 on a parameter named `value`).
      const feb30 = Buffer.from(JSON.stringify([sort2, ['2024-02-30T00:00:00.000Z'], id2])).toString('base64url');
      expect(outline(await ask('GET', `/v1/members?cursor=${feb30}`))).toEqual(
        problem(400, 'invalid_parameter', [['cursor', 'invalid']]),
      );
      // A date field (age sorts on birthdate): month 99 made toISOString throw (RangeError, a 500).
      const [sort3, , id3] = await cursorOf('/v1/members?sort=age&limit=1');
      const month99 = Buffer.from(JSON.stringify([sort3, ['2024-99-01'], id3])).toString('base64url');
      expect(outline(await ask('GET', `/v1/members?sort=age&cursor=${month99}`))).toEqual(
        problem(400, 'invalid_parameter', [['cursor', 'invalid']]),
      );
    });

    it('NUL or an unpaired surrogate in a JSON body is a 422 naming each field (a driver error, or isEmail throwing URIError)', async () => {
      const cases: [string, string, unknown, [string, string][]][] = [
        ['POST', '/v1/members', { first_name: 'Ana\u0000', last_name: 'Ruiz' }, [['first_name', 'invalid_format']]],
        [
          'POST',
          '/v1/members',
          { first_name: 'Ana', last_name: 'Ruiz', address: { city: '\u0000' }, custom_fields: { note: 'x\u0000' } },
          [
            ['address.city', 'invalid_format'],
            ['custom_fields.note', 'invalid_format'],
          ],
        ],
        [
          'POST',
          '/v1/members',
          { first_name: 'Ana', last_name: 'Ruiz', email: 'a\ud800@example.org' },
          [['email', 'invalid_format']],
        ],
        [
          'POST',
          '/v1/members',
          { first_name: 'Ana', last_name: 'Ruiz', 'x\u0000': 1 },
          [['x\ufffd', 'invalid_format']],
        ],
        [
          'POST',
          '/v1/members/bulk',
          {
            members: [
              { first_name: 'A', last_name: 'B' },
              { first_name: 'C\u0000', last_name: 'D' },
            ],
          },
          [['members[1].first_name', 'invalid_format']],
        ],
        ['POST', '/v1/devices', { name: '\u0000' }, [['name', 'invalid_format']]],
        ['POST', '/v1/auth/tokens', { name: 'n\u0000', scopes: ['read:members'] }, [['name', 'invalid_format']]],
        [
          'POST',
          '/v1/webhook-endpoints',
          { url: LOOPBACK_URL, events: ['member.created'], description: 'x\u0000' },
          [['description', 'invalid_format']],
        ],
        ['PATCH', `/v1/campuses/${realIds.get('/v1/campuses')}`, { name: '\u0000' }, [['name', 'invalid_format']]],
      ];
      for (const [method, path, body, errors] of cases) {
        const res = await ask(method, path, body);
        expect({ path, ...outline(res) }).toEqual({ path, ...problem(422, 'validation_failed', errors) });
        expect(res.body.errors?.[0].message).toContain('NUL');
      }
      // A UTF-16 body spells its escapes in two-byte units: the check must not skip it.
      const utf16 = Buffer.from(JSON.stringify({ first_name: 'Ana\u0000', last_name: 'Ruiz' }), 'utf16le');
      const wide = await ask('POST', '/v1/members', utf16, { 'Content-Type': 'application/json; charset=utf-16le' });
      expect(outline(wide)).toEqual(problem(422, 'validation_failed', [['first_name', 'invalid_format']]));
      // Control: other characters, surrogate pairs included, are stored as sent.
      const ok = await ask('POST', '/v1/members', { first_name: 'Ana 😀', last_name: 'Núñez' });
      expect({ status: ok.status, first_name: ok.body.first_name }).toEqual({ status: 201, first_name: 'Ana 😀' });
    });

    it('a JSON body nested deeper than 32 levels is a 422, with or without Idempotency-Key (class-transformer overflowed the stack: RangeError)', async () => {
      // The field is the dotted path down to the first level past the limit.
      const tooDeep = (top: string) =>
        problem(422, 'validation_failed', [
          [expect.stringMatching(new RegExp(`^${top}(\\.a){31}$`)), 'invalid_format'],
        ]);
      expect(outline(await ask('POST', '/v1/campuses', `{"deep": ${deep(5000)}}`))).toEqual(tooDeep('deep'));
      expect(
        outline(await ask('PATCH', `/v1/members/${realIds.get('/v1/members')}`, `{"address": ${deep(40)}}`)),
      ).toEqual(tooDeep('address'));
      const idem = await ask('POST', '/v1/members', deepArray(100_000), { 'Idempotency-Key': randomUUID() });
      expect({ status: idem.status, code: idem.body.code }).toEqual({ status: 422, code: 'validation_failed' });
      expect(idem.body.errors?.[0].message).toContain('32');
      // Control: within the limit the usual rules answer (an unknown field).
      expect(outline(await ask('POST', '/v1/campuses', `{"key": "k", "name": "n", "extra": ${deep(20)}}`))).toEqual(
        problem(422, 'validation_failed', [['extra', 'unknown_field']]),
      );
    });

    it('PATCH a webhook endpoint with null for url, events or status is a 422 required (status reached a NOT NULL column; events: null emptied the list)', async () => {
      const created = await ask('POST', '/v1/webhook-endpoints', { url: LOOPBACK_URL, events: ['member.updated'] });
      expect(created.status).toBe(201);
      const path = `/v1/webhook-endpoints/${created.body.id as string}`;
      expect(outline(await ask('PATCH', path, { status: null }))).toEqual(
        problem(422, 'validation_failed', [['status', 'required']]),
      );
      expect(outline(await ask('PATCH', path, { url: null, events: null }))).toEqual(
        problem(422, 'validation_failed', [
          ['url', 'required'],
          ['events', 'required'],
        ]),
      );
      expect((await ask('PATCH', path, { status: 'disabled' })).body.status).toBe('disabled');
      expect((await ask('PATCH', path, { description: 'still editable' })).body.status).toBe('disabled');
    });

    it('a path segment that is not valid percent-encoding is a 400 that names the path (it said "parameter ?")', async () => {
      for (const raw of ['%ZZ', '%', '%FF%FE']) {
        const res = await ask('GET', `/v1/members/${raw}`);
        expect({ raw, ...outline(res) }).toEqual({
          raw,
          ...problem(400, 'invalid_parameter', [['path', 'invalid_format']]),
        });
      }
    });
  });

  // DELETE operations run last (in their own test): they remove the records the other variations use as path ids.
  const families: [string, (op: Operation) => Variation[]][] = [
    ['malformed path ids', pathVariations],
    ['hostile query strings', queryVariations],
    ['hostile bodies', (op) => (['post', 'put', 'patch'].includes(op.method) ? bodyVariations(op) : [])],
    ['hostile headers', headerVariations],
  ];

  it.each(families)(
    '%s: every operation but DELETE answers below 500, errors as problem+json with a code',
    async (_name, variations) => {
      const failures: string[] = [];
      for (const op of operations.filter((o) => o.method !== 'delete')) await run(op, variations(op), failures);
      expect(failures).toEqual([]);
      // Thousands of requests per family over every operation (the giving routes brought a family past a minute).
    },
    300_000,
  );

  it('DELETE operations, every family of variations (last: they remove the records)', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.method === 'delete'))
      for (const [, variations] of families) await run(op, variations(op), failures);
    expect(failures).toEqual([]);
    // Not vacuous: thousands of hostile requests went out over the file.
    expect(requestsSent).toBeGreaterThan(5000);
  });
});
