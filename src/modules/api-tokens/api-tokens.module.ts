import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { ApiTokensService } from './api-tokens.service';
import { ApiTokensRepository } from './api-tokens.repository';
import { TokenExpiryNotifier } from './token-expiry.notifier';
import { TokensController } from './tokens.controller';

/** Personal and service tokens (`/v1/auth/tokens`) and their expiry notices (the daily `token-expiry` job). */
@Module({
  imports: [UsersModule],
  controllers: [TokensController],
  providers: [ApiTokensService, ApiTokensRepository, TokenExpiryNotifier],
  exports: [TokenExpiryNotifier, ApiTokensService],
})
export class ApiTokensModule {}
