// The producer side of scenario 5: adds delivery jobs exactly as src/platform/outbox/delivery/
// delivery-queue.ts does: `enqueue` as `enqueueBatches` (a church's attempts with the same delay in
// 'deliver-batch' jobs of up to 50, an attempt alone as a 'deliver' job), `enqueueSingles` as
// `enqueueEach` (name 'deliver', jobId <delivery>-<attempt>, removeOnComplete): the reference
// workers' jobs, one per attempt.
import { randomUUID } from 'node:crypto';
import { config, requireFromRepo } from '../lib/util.mjs';

const { Queue } = requireFromRepo('bullmq');
/** As BATCH_SIZE in delivery-queue.ts. */
const BATCH_SIZE = 50;

export class BullmqQueue {
  constructor(prefix) {
    this.queue = new Queue('webhook-deliveries', {
      connection: { url: config.redisUrl, connectionName: 'church-bench-producer', maxRetriesPerRequest: 1 },
      prefix,
    });
    this.queue.on('error', () => undefined);
  }

  /** refs: {tenantId, deliveryId, endpointId, attempt, delayMs?}. */
  async enqueue(refs) {
    const groups = new Map();
    for (const ref of refs) {
      const delayMs = Math.round(ref.delayMs ?? 0);
      const key = `${ref.tenantId}|${delayMs}`;
      groups.set(key, [...(groups.get(key) ?? []), { ...ref, delayMs }]);
    }
    const singles = [];
    const batches = [];
    for (const group of groups.values())
      for (let i = 0; i < group.length; i += BATCH_SIZE) {
        const chunk = group.slice(i, i + BATCH_SIZE);
        if (chunk.length === 1) singles.push(chunk[0]);
        else
          batches.push({
            name: 'deliver-batch',
            data: {
              tenantId: chunk[0].tenantId,
              deliveries: chunk.map(({ deliveryId, endpointId, attempt }) => ({ deliveryId, endpointId, attempt })),
            },
            opts: {
              jobId: `batch-${randomUUID()}`,
              delay: chunk[0].delayMs,
              removeOnComplete: true,
              removeOnFail: true,
            },
          });
      }
    for (let i = 0; i < batches.length; i += 200) await this.queue.addBulk(batches.slice(i, i + 200));
    await this.enqueueSingles(singles);
  }

  /** refs: {tenantId, deliveryId, attempt, delayMs?}, a job each; added 1,000 at a time. */
  async enqueueSingles(refs) {
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
