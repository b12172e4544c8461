// Scenario 5's references: a BullMQ worker on the same queue, with the same connection options and
// concurrency as the project's DeliveryProcessor, whose processor does nothing but complete the job;
// with POST_URL set, it only POSTs an event-sized body to the receiver (keep-alive, no database, no
// signing), which is the least any delivery costs on this machine.
// IPC: {cmd:'report'} → {completed, first, last} (wall-clock ms of the first and last completion).
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const { Worker } = createRequire(join(repo, 'package.json'))('bullmq');
const postUrl = process.env.POST_URL;
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
const body = JSON.stringify({
  id: 'evt_0',
  type: 'member.created',
  data: {
    object: { first_name: 'María', last_name: 'González', email: 'maria@example.org', padding: 'x'.repeat(400) },
  },
});

function post(job) {
  return new Promise((resolvePost, reject) => {
    const req = request(
      `${postUrl}/hooks/${job.data.deliveryId}`,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Service-Webhook-Id': `evt_${job.data.deliveryId}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', resolvePost);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let completed = 0;
let first = null;
let last = null;
const worker = new Worker('webhook-deliveries', async (job) => (postUrl ? post(job) : 'delivered'), {
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
