import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request, { Response } from 'supertest';
import { loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { startBackground } from '../../src/background';
import { createHttpApp } from '../../src/http-app';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../src/platform/openapi/openapi.controller';
import { OpenApiCheck } from './openapi-check';

/** A request body as JSON: anything JSON cannot carry (a Date, a Map, a function) fails to compile. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;
export type JsonObject = { readonly [key: string]: JsonValue | undefined };

export interface Call {
  token?: string;
  tenant?: string;
  lang?: string;
  headers?: Record<string, string>;
  body?: JsonValue;
  /** Send `body` as-is (a string) with this content type. */
  raw?: { contentType: string };
}

/**
 * The API on the test database, over real HTTP (supertest). Every response is checked against the
 * OpenAPI description; a mismatch fails the test that made the call.
 */
export class TestApi {
  readonly openapi: OpenApiCheck;

  private constructor(readonly app: NestExpressApplication) {
    this.openapi = new OpenApiCheck(app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).document!);
  }

  static async start(env: Record<string, string> = {}): Promise<TestApi> {
    Object.assign(process.env, env);
    const app = await createHttpApp(loadConfig(), { logger: ['error'] });
    await app.get(Database).connect();
    await app.init();
    startBackground(app, 'api');
    return new TestApi(app);
  }

  get db(): Database {
    return this.app.get(Database);
  }

  get<T = unknown>(path: string, call: Call = {}) {
    return this.send<T>('GET', path, call);
  }
  post<T = unknown>(path: string, call: Call = {}) {
    return this.send<T>('POST', path, call);
  }
  patch<T = unknown>(path: string, call: Call = {}) {
    return this.send<T>('PATCH', path, call);
  }
  put<T = unknown>(path: string, call: Call = {}) {
    return this.send<T>('PUT', path, call);
  }
  delete<T = unknown>(path: string, call: Call = {}) {
    return this.send<T>('DELETE', path, call);
  }

  async send<T>(method: string, path: string, call: Call): Promise<TypedResponse<T>> {
    let req = request(this.app.getHttpServer())[method.toLowerCase() as 'get'](path);
    if (call.token) req = req.set('Authorization', `Bearer ${call.token}`);
    if (call.tenant) req = req.set('X-Tenant', call.tenant);
    if (call.lang) req = req.set('Accept-Language', call.lang);
    for (const [name, value] of Object.entries(call.headers ?? {})) req = req.set(name, value);
    if (call.raw) req = req.set('Content-Type', call.raw.contentType).send(call.body as string);
    else if (call.body !== undefined) req = req.send(call.body as object);
    const res = await req;
    const problems = this.openapi.check(method, path, res.status, res.headers['content-type'], res.body);
    if (problems.length)
      throw new Error(
        `Response does not match the OpenAPI description:\n${problems.join('\n')}\n${JSON.stringify(res.body).slice(0, 500)}`,
      );
    return res;
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}

/** supertest's Response with `body` as `T` (its own `body` is `any`, which would swallow `T` in an intersection). */
export type TypedResponse<T> = Omit<Response, 'body'> & { body: T };
