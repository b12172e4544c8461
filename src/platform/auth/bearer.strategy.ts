import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { AuthRequest, Principal } from './principal';
import { TokenAuthenticator } from './token-authenticator';

/**
 * Passport keeps one strategy per name per process; the guard puts its own application's
 * authenticator on the request so that two applications in one process (tests) never cross.
 */
export const AUTHENTICATOR = Symbol('authenticator');

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly authenticator: TokenAuthenticator) {
    super({ passReqToCallback: true });
  }

  validate(req: AuthRequest & { [AUTHENTICATOR]?: TokenAuthenticator }, token: string): Promise<Principal> {
    return (req[AUTHENTICATOR] ?? this.authenticator).authenticate(token, String(req.headers['x-tenant']));
  }
}
