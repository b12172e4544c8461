import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { MaintenanceProcessor } from './platform/notices/maintenance.processor';
import { DeliveryProcessor } from './platform/webhooks/delivery/delivery.processor';
import { DeliverySweeper } from './platform/webhooks/delivery/delivery-sweeper';
import { InProcessDeliveries } from './platform/webhooks/delivery/in-process-deliveries';

/**
 * Background work, started once the database is connected. With REDIS_URL the worker process runs
 * the BullMQ consumers and the sweeper; without it, the API process runs the same work in-process.
 */
export async function startBackground(app: INestApplicationContext, role: 'api' | 'worker'): Promise<void> {
  const redis = loadConfig().REDIS_URL !== undefined;
  if (!redis) {
    app.get(InProcessDeliveries).start();
    await app.get(MaintenanceProcessor).start();
    return;
  }
  if (role === 'worker') {
    app.get(DeliveryProcessor).start();
    app.get(DeliverySweeper).start();
    await app.get(MaintenanceProcessor).start();
  }
}
