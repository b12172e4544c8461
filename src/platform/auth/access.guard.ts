import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AppError } from '../../common/errors/app-error';
import type { Response } from 'express';
import { AddressLimiter } from '../rate-limit/address-limiter';
import { AUTH_METADATA, RouteAccess } from './auth.decorator';
import { AUTHENTICATOR } from './bearer.strategy';
import { TokenAuthenticator } from './token-authenticator';
import type { AuthRequest, Principal } from './principal';

/**
 * First global guard: tenant header, then the bearer token (passport). The rate limiter runs next,
 * then PermissionGuard (CORS allowlist, scopes), so that those refusals count and carry limits.
 * A route without @Auth or @Public is refused (fail closed); the route-inventory test finds it first.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: TokenAuthenticator,
    private readonly addresses: AddressLimiter,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(AUTH_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (access === 'public') return true;
    if (!access) throw new AppError('internal_error');
    const req = context.switchToHttp().getRequest<AuthRequest>();
    try {
      await this.authenticate(context, req);
    } catch (error) {
      // Refused before a church is known: count it against the client's address (429 past the quota).
      await this.addresses.chargeAnonymous(req, context.switchToHttp().getResponse<Response>());
      throw error;
    }
    return true;
  }

  private async authenticate(context: ExecutionContext, req: AuthRequest): Promise<void> {
    const tenant = req.headers['x-tenant'];
    if (typeof tenant !== 'string' || tenant.trim() === '') throw new AppError('missing_tenant');
    // Only the Authorization header: passport-http-bearer would also read ?access_token= (which leaks into logs).
    if (!/^Bearer\s+\S+$/i.test(req.headers.authorization ?? '')) throw new AppError('unauthorized');
    (req as AuthRequest & { [AUTHENTICATOR]?: TokenAuthenticator })[AUTHENTICATOR] = this.authenticator;
    await super.canActivate(context);
    req.principal = req.user as Principal;
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err as Error; // passport hands on the strategy's error (an AppError) or its own
    if (!user) throw new AppError('unauthorized');
    return user;
  }
}
