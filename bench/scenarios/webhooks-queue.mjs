// The producer side of scenario 5: adds delivery jobs exactly as src/platform/outbox/delivery/
// delivery-queue.ts does (name 'deliver', jobId <delivery>-<attempt>, removeOnComplete).
import { config, requireFromRepo } from '../lib/util.mjs';

const { Queue } = requireFromRepo('bullmq');

export class BullmqQueue {
  constructor(prefix) {
    this.queue = new Queue('webhook-deliveries', {
      connection: { url: config.redisUrl, connectionName: 'church-bench-producer', maxRetriesPerRequest: 1 },
      prefix,
    });
    this.queue.on('error', () => undefined);
  }

  /** refs: {tenantId, deliveryId, attempt, delayMs?}; added 1,000 at a time. */
  async enqueue(refs) {
    for (let i = 0; i < refs.length; i += 1000) {
      await this.queue.addBulk(
        refs.slice(i, i + 1000).map(({ tenantId, deliveryId, endpointId, attempt, delayMs = 0 }) => ({
          name: 'deliver',
          data: { tenantId, deliveryId, endpointId, attempt },
          opts: {
            jobId: `${deliveryId}-${attempt}`,
            delay: Math.round(delayMs),
            removeOnComplete: true,
            removeOnFail: { count: 1000 },
          },
        })),
      );
    }
  }

  async obliterate() {
    await this.queue.obliterate({ force: true });
  }

  async close() {
    await this.queue.close();
  }
}
