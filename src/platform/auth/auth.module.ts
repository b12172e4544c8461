import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { UsersModule } from '../users/users.module';
import { BearerStrategy } from './bearer.strategy';
import { TokenAuthenticator } from './token-authenticator';
import { TokensService } from './tokens.service';

@Global()
@Module({
  imports: [PassportModule.register({ session: false }), UsersModule],
  providers: [TokenAuthenticator, BearerStrategy, TokensService],
  exports: [TokenAuthenticator, TokensService],
})
export class AuthModule {}
