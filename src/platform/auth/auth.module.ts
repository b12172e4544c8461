import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { BearerStrategy } from './bearer.strategy';
import { TokenAuthenticator } from './token-authenticator';
import { TokensService } from './tokens.service';

@Global()
@Module({
  imports: [PassportModule.register({ session: false })],
  providers: [TokenAuthenticator, BearerStrategy, TokensService],
  exports: [TokenAuthenticator, TokensService],
})
export class AuthModule {}
