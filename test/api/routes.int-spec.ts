import 'reflect-metadata';
import { Controller, Get, Module, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { configureHttpApp } from '../../src/http-app';
import {
  ADDRESS_LIMIT_METADATA,
  Auth,
  AUTH_METADATA,
  Public,
  RouteAccess,
} from '../../src/platform/auth/auth.decorator';
import { isScope } from '../../src/platform/auth/scopes';
import { TokensService } from '../../src/platform/auth/tokens.service';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../src/platform/openapi/openapi.controller';
import { TenantsService } from '../../src/platform/tenancy/tenants.service';
import { UsersService } from '../../src/platform/users/users.service';
import { TestApi } from '../support/api';
import { TestTenant, uniqueSlug } from '../support/factories';

interface Route {
  method: string;
  path: string;
  controller: string;
  handler: string;
  access: RouteAccess | undefined;
  /** Public routes: limited per client address (PUBLIC_RATE_LIMIT) or not. */
  addressLimit: boolean | undefined;
}

const asArray = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? (value as string[]) : [value as string];

function joinPath(...parts: string[]): string {
  const joined = `/${parts.filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** Every route handler of every controller of the application, read from the decorators' metadata. */
function walkRoutes(modules: ModulesContainer): Route[] {
  const scanner = new MetadataScanner();
  const routes: Route[] = [];
  const seen = new Set<Type>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller));
      const prototype = controller.prototype as Record<string, object>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue; // not a route handler
        const access = (Reflect.getMetadata(AUTH_METADATA, handler) ??
          Reflect.getMetadata(AUTH_METADATA, controller)) as RouteAccess | undefined;
        for (const prefix of prefixes) {
          for (const path of asArray(Reflect.getMetadata(PATH_METADATA, handler))) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(prefix, path),
              controller: controller.name,
              handler: name,
              access,
              addressLimit: Reflect.getMetadata(ADDRESS_LIMIT_METADATA, handler) as boolean | undefined,
            });
          }
        }
      }
    }
  }
  return routes;
}

function describeAccess(access: RouteAccess, addressLimit: boolean | undefined): string {
  if (access === 'public') return addressLimit ? 'public [per-address limit]' : 'public';
  const scopes = access.scopes.length ? access.scopes.join(',') : '(any token)';
  return access.credentials ? `${scopes} [credentials: no oauth or kiosk token]` : scopes;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('route inventory', () => {
  let api: TestApi;
  let routes: Route[];
  let document: OpenApiDocumentHolder['document'];

  beforeAll(async () => {
    api = await TestApi.start();
    routes = walkRoutes(api.app.get(ModulesContainer));
    document = api.app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).document;
  });
  afterAll(() => api.close());

  it('finds the routes of the foundation (the walker works)', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /v1/members',
        'POST /v1/members',
        'POST /v1/members/bulk',
        'GET /v1/members/:id',
        'DELETE /v1/members/:id',
        'POST /v1/campuses',
        'GET /healthz',
      ]),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every route declares @Auth({scopes}) or @Public()', () => {
    const undeclared = routes
      .filter((r) => r.access === undefined)
      .map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    expect(undeclared).toEqual([]);
    for (const route of routes) {
      if (route.access === 'public') continue;
      const label = `${route.method} ${route.path}`;
      expect({ label, scopes: Array.isArray(route.access?.scopes) }).toEqual({ label, scopes: true });
      const unknown = route.access!.scopes.filter((s) => !isScope(s));
      expect({ label, unknown }).toEqual({ label, unknown: [] });
    }
  });

  it('the resource routes require a token with scopes (never public)', () => {
    const open = routes.filter(
      (r) => /^\/v1\/(members|campuses)/.test(r.path) && (r.access === 'public' || !r.access?.scopes.length),
    );
    expect(open).toEqual([]);
  });

  it('who can reach what is unchanged (update the snapshot when a change is intended and reviewed)', () => {
    const inventory = routes.map((r) => `${r.method} ${r.path} ${describeAccess(r.access!, r.addressLimit)}`).sort();
    expect(inventory).toMatchSnapshot();
  });

  it('every non-public route is in the OpenAPI document with x-required-scopes equal to its scopes', () => {
    expect(document).toBeTruthy();
    const paths = document!.paths as Record<
      string,
      Record<string, { 'x-required-scopes'?: string[]; security?: Record<string, string[]>[] }>
    >;
    for (const route of routes) {
      if (route.access === 'public' || !route.access) continue;
      const label = `${route.method} ${route.path}`;
      const operation = paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()];
      expect({ label, documented: operation !== undefined }).toEqual({ label, documented: true });
      expect({ label, scopes: operation['x-required-scopes'] }).toEqual({ label, scopes: route.access.scopes });
      const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
      expect({ label, schemes }).toEqual({ label, schemes: expect.arrayContaining(['bearer', 'tenant']) });
    }
  });

  it('the OpenAPI document describes no route that does not exist, and no public route claims scopes', () => {
    const byKey = new Map(routes.map((r) => [`${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`, r]));
    const verbs = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];
    for (const [path, item] of Object.entries(
      document!.paths as Record<string, Record<string, { 'x-required-scopes'?: string[] }>>,
    )) {
      for (const verb of verbs.filter((v) => item[v])) {
        const route = byKey.get(`${verb} ${path}`);
        expect({ operation: `${verb} ${path}`, exists: route !== undefined }).toEqual({
          operation: `${verb} ${path}`,
          exists: true,
        });
        if (route?.access === 'public') expect(item[verb]['x-required-scopes']).toBeUndefined();
      }
    }
  });
});

describe('the access guard fails closed', () => {
  /** A controller added to the real application for this test only: one route forgot its decorator. */
  @Controller('probe')
  class ProbeController {
    @Get('naked')
    naked() {
      return { reached: true };
    }

    @Get('open')
    @Public()
    open() {
      return { reached: true };
    }

    @Get('guarded')
    @Auth({ scopes: ['read:members'] })
    guarded() {
      return { reached: true };
    }
  }

  @Module({ imports: [AppModule.forRoot(loadConfig())], controllers: [ProbeController] })
  class ProbeAppModule {}

  let app: NestExpressApplication;
  let church: TestTenant;

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(ProbeAppModule, { logger: false, bodyParser: false });
    configureHttpApp(app);
    await app.get(Database).connect();
    await app.init();
    const tenant = await app
      .get(TenantsService)
      .create({ slug: uniqueSlug('probe'), name: 'Probe Church', plan: 'business' });
    const token = await app.get(Database).runInTenant({ tenantId: tenant.id, actor: { kind: 'cli' } }, async () => {
      const user = await app.get(UsersService).create({ email: `probe-${tenant.slug}@example.org`, role: 'org_admin' });
      return (
        await app.get(TokensService).issue({ type: 'service', name: 'probe', scopes: ['admin:*'], creator: user })
      ).value;
    });
    church = { id: tenant.id, slug: tenant.slug, token } as TestTenant;
  });
  afterAll(() => app.close());

  it('a route with neither @Auth nor @Public is refused even with a valid admin token, never served', async () => {
    const res = await request(app.getHttpServer())
      .get('/probe/naked')
      .set('X-Tenant', church.slug)
      .set('Authorization', `Bearer ${church.token}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect((res.body as { reached?: boolean }).reached).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('a @Public route is served without token or tenant (control)', async () => {
    const res = await request(app.getHttpServer()).get('/probe/open');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reached: true });
  });

  it('an @Auth route is served with a token of the church (control) and refused without X-Tenant', async () => {
    const ok = await request(app.getHttpServer())
      .get('/probe/guarded')
      .set('X-Tenant', church.slug)
      .set('Authorization', `Bearer ${church.token}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ reached: true });
    const res = await request(app.getHttpServer()).get('/probe/guarded').set('Authorization', `Bearer ${church.token}`);
    expect(res.status).toBe(400);
    expect((res.body as { code: string }).code).toBe('missing_tenant');
  });
});
