import { Module } from '@nestjs/common';
import { MaintenanceProcessor } from './maintenance.processor';
import { MaintenanceQueue } from './maintenance.queue';
import { TokenExpiryNotifier } from './token-expiry.notifier';

/** Token expiry notices and the daily 'maintenance' queue; imported by the worker only. */
@Module({
  providers: [TokenExpiryNotifier, MaintenanceQueue, MaintenanceProcessor],
  exports: [TokenExpiryNotifier, MaintenanceQueue, MaintenanceProcessor],
})
export class NoticesModule {}
