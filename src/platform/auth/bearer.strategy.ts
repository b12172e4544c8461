import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { ApiRequest } from '../../common/http/request';
import type { Principal } from './principal';
import { TokenAuthenticator } from './token-authenticator';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly authenticator: TokenAuthenticator) {
    super({ passReqToCallback: true });
  }

  validate(req: ApiRequest, token: string): Promise<Principal> {
    return this.authenticator.authenticate(token, String(req.headers['x-tenant']));
  }
}
