import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { applyCors } from '../cors/cors';
import { CorsPolicy } from '../cors/cors-policy.service';
import { AUTH_METADATA, NOT_FOR_CREDENTIALS, RouteAccess } from './auth.decorator';
import type { AuthRequest } from './principal';
import { isKioskRoute, KIOSK_ROUTES } from './kiosk-routes';
import { hasScope } from './scopes';

/**
 * Last global guard: a browser Origin must be on the church's allowlist, a credential route takes
 * no OAuth access token or kiosk key, and the token must hold every scope of the route.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly cors: CorsPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(AUTH_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    const req = context.switchToHttp().getRequest<AuthRequest>();
    if (!access || access === 'public' || !req.principal) return true;
    await applyCors(this.cors, req.principal.tenantId, req, context.switchToHttp().getResponse<Response>());
    const type = req.principal.tokenType;
    if (access.credentials && (NOT_FOR_CREDENTIALS as readonly string[]).includes(type))
      throw new AppError('token_type_not_allowed', {
        token_type: type === 'oauth' ? 'OAuth access token' : 'kiosk key',
      });
    // A kiosk key reaches its allow-list only (kiosk-routes.ts); the detail names the route's scopes and the list.
    const kioskDenied =
      req.principal.tokenType === 'kiosk' &&
      !isKioskRoute(req.method, (req as { route?: { path?: string } }).route?.path);
    const missing = kioskDenied
      ? `${access.scopes.join(' ') || 'a token other than a kiosk key'} (a kiosk key reaches only ${KIOSK_ROUTES.join(', ')})`
      : access.scopes.find((scope) => !hasScope(req.principal!.scopes, scope));
    if (missing) {
      throw new AppError('scope_insufficient', { scope: missing }, [], {
        'WWW-Authenticate': `Bearer realm="church-api", error="insufficient_scope", scope="${access.scopes.join(' ')}"`,
      });
    }
    return true;
  }
}
