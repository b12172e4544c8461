import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppError } from '../../common/errors/app-error';
import type { ApiRequest } from '../../common/http/request';
import type { Response } from 'express';
import { applyCors } from '../settings/cors';
import { CorsPolicy } from '../settings/cors-policy.service';
import { AUTH_METADATA, RouteAccess } from './auth.decorator';
import { AUTHENTICATOR } from './bearer.strategy';
import { TokenAuthenticator } from './token-authenticator';
import type { Principal } from './principal';
import { hasScope } from './scopes';

/**
 * Global guard, in the order of ARCHITECTURE.md: tenant header, bearer token (passport), the
 * church's CORS allowlist for browser calls, scopes.
 * A route without @Auth or @Public is refused (fail closed); the route-inventory test finds it first.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly cors: CorsPolicy,
    private readonly authenticator: TokenAuthenticator,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(AUTH_METADATA, [context.getHandler(), context.getClass()]);
    if (access === 'public') return true;
    if (!access) throw new AppError('internal_error');
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const tenant = req.headers['x-tenant'];
    if (typeof tenant !== 'string' || tenant.trim() === '') throw new AppError('missing_tenant');
    // Only the Authorization header: passport-http-bearer would also read ?access_token= (which leaks into logs).
    if (!/^Bearer\s+\S+$/i.test(req.headers.authorization ?? '')) throw new AppError('unauthorized');
    (req as ApiRequest & { [AUTHENTICATOR]?: TokenAuthenticator })[AUTHENTICATOR] = this.authenticator;
    await super.canActivate(context);
    const principal = req.user as Principal;
    req.principal = principal;
    await applyCors(this.cors, principal.tenantId, req, context.switchToHttp().getResponse<Response>());
    const missing = access.scopes.find((scope) => !hasScope(principal.scopes, scope));
    if (missing) {
      throw new AppError('scope_insufficient', { scope: missing }, [], {
        'WWW-Authenticate': `Bearer realm="church-api", error="insufficient_scope", scope="${access.scopes.join(' ')}"`,
      });
    }
    return true;
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw new AppError('unauthorized');
    return user;
  }
}
