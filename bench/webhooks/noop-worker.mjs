// Scenario 5's reference: a BullMQ worker on the same queue, with the same connection options and
// concurrency as the project's DeliveryProcessor, whose processor does nothing but complete the job.
// IPC: {cmd:'report'} → {completed, first, last} (wall-clock ms of the first and last completion).
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const { Worker } = createRequire(join(repo, 'package.json'))('bullmq');

let completed = 0;
let first = null;
let last = null;
const worker = new Worker('webhook-deliveries', async () => 'delivered', {
  connection: { url: process.env.REDIS_URL, connectionName: 'church-bench-noop-worker', maxRetriesPerRequest: null },
  prefix: process.env.QUEUE_PREFIX,
  concurrency: Number(process.env.WEBHOOK_CONCURRENCY ?? 50),
});
worker.on('completed', () => {
  const t = performance.timeOrigin + performance.now();
  completed++;
  first ??= t;
  last = t;
});
worker.on('error', (e) => console.error(`noop worker: ${e.message}`));
await worker.waitUntilReady();
process.send({ ready: true });
process.on('message', async (msg) => {
  if (msg.cmd === 'report') process.send({ completed, first, last });
  if (msg.cmd === 'reset') {
    completed = 0;
    first = last = null;
    process.send({ reset: true });
  }
  if (msg.cmd === 'stop') {
    await worker.close();
    process.exit(0);
  }
});
