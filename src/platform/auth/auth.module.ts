import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { BearerStrategy } from './bearer.strategy';
import { TokenAuthenticator } from './token-authenticator';
import { TokensService } from './tokens.service';
import { TokensApiService } from './tokens-api.service';
import { TokensController } from './tokens.controller';
import { UsersModule } from '../users/users.module';

@Global()
@Module({
  imports: [PassportModule.register({ session: false }), UsersModule],
  controllers: [TokensController],
  providers: [TokenAuthenticator, BearerStrategy, TokensService, TokensApiService],
  exports: [TokenAuthenticator, TokensService],
})
export class AuthModule {}
