import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { ApiTokensService } from './api-tokens.service';
import { ApiTokensRepository } from './api-tokens.repository';
import { TokenExpiryNotifier } from './token-expiry.notifier';
import { TokenExpirySchedule } from './token-expiry.schedule';
import { TokensController } from './tokens.controller';

/** Personal and service tokens (`/v1/auth/tokens`) and their expiry notices (the `token-expiry` job, daily). */
@Module({
  imports: [UsersModule],
  controllers: [TokensController],
  providers: [ApiTokensService, ApiTokensRepository, TokenExpiryNotifier, TokenExpirySchedule],
  exports: [TokenExpiryNotifier, TokenExpirySchedule],
})
export class ApiTokensModule {}
