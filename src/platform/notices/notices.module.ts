import { Module } from '@nestjs/common';
import { TokenExpiryNotifier } from './token-expiry.notifier';
import { TokenExpirySchedule } from './token-expiry.schedule';

/** Token expiry notices: the `token-expiry` job and its daily schedule. */
@Module({
  providers: [TokenExpiryNotifier, TokenExpirySchedule],
  exports: [TokenExpiryNotifier, TokenExpirySchedule],
})
export class NoticesModule {}
