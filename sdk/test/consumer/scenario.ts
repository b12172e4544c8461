// A user's program, compiled with `tsc --strict` against the SDK installed from its tarball and run
// against the API by test/system/sdk.int-spec.ts (through a proxy that fails some first attempts).
// It prints one JSON report on stdout. SCENARIO=smoke runs the short part only (an older Node).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChurchApiError, ChurchClient, type Change, type Member } from '@church-api/sdk';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@church-api/sdk/webhooks';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const run = env('RUN_ID');
const client = new ChurchClient({
  token: env('CHURCH_TOKEN'),
  tenant: env('CHURCH_TENANT'),
  baseUrl: env('CHURCH_BASE_URL'),
  language: 'en',
  retries: { maxAttempts: 4, baseDelayMs: 50 },
});
const report: Record<string, unknown> = { node: process.version };

async function apiError(call: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof ChurchApiError)) throw error;
    const { status, code, title, detail, request_id, errors } = error;
    return { status, code, title, detail, request_id, errors };
  }
  throw new Error('expected a ChurchApiError');
}

async function smoke(): Promise<void> {
  const member: Member = await client.members.create({ first_name: 'Smoke', last_name: `Smoke-${run}` });
  const again = await client.members.get(member.id);
  const page = await client.members.list({ q: `Smoke-${run}` }).page();
  const secret = 'whsec_smoke';
  const body = JSON.stringify({ id: 'evt_1', type: 'member.created', data: { object: again } });
  const t = Math.floor(Date.now() / 1000);
  const header = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  report.smoke = {
    got: again.id === member.id,
    listed: page.data.map((m) => m.id),
    notFound: await apiError(() => client.members.get(`mem_${'0'.repeat(32)}`)),
    verified: verifyWebhook(body, header, [secret]).id,
    head: typeof (await client.changes.head()).cursor,
  };
}

/** A webhook receiver on 127.0.0.1: verifies each delivery on its raw bytes, and a tampered copy of it. */
async function receiver(secrets: () => string[]) {
  const events: WebhookEvent[] = [];
  const tampered: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = req.headers['service-signature'] as string | undefined;
      try {
        const event = verifyWebhook(raw, header, secrets());
        events.push(event);
        const forged = Buffer.from(raw.toString('utf8').replace('"Webhook"', '"Webhock"'), 'utf8');
        try {
          verifyWebhook(forged, header, secrets());
          tampered.push('accepted');
        } catch (error) {
          tampered.push(error instanceof WebhookVerificationError ? error.reason : String(error));
        }
        res.writeHead(200).end();
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, events, tampered, port: (server.address() as AddressInfo).port };
}

async function full(): Promise<void> {
  // 1. Creates whose first attempt fails at the proxy: a 503 before the API, and a cut after it.
  const afterRetry = await client.members.create({ first_name: 'Retry', last_name: `Retry503-${run}` });
  const afterDrop = await client.members.create({ first_name: 'Retry', last_name: `RetryDrop-${run}` });
  report.retries = {
    created: [afterRetry.id, afterDrop.id],
    retry503: (await client.members.list({ q: `Retry503-${run}` }).toArray()).map((m) => m.id),
    retryDrop: (await client.members.list({ q: `RetryDrop-${run}` }).toArray()).map((m) => m.id),
  };

  // 2. 600 members on a campus of their own, in two bulk calls, then every one of them with for await.
  const campus = await client.campuses.create({ key: `many-${run}`, name: 'Many' });
  for (const [from, count] of [
    [0, 500],
    [500, 100],
  ] as const) {
    const members = Array.from({ length: count }, (_, i) => ({
      first_name: 'Many',
      last_name: `N${String(from + i).padStart(3, '0')}`,
      campus: campus.key,
    }));
    const result = await client.members.bulk({ members });
    if (result.created !== count) throw new Error(`bulk created ${result.created} of ${count}`);
  }
  const ids = new Set<string>();
  let listed = 0;
  for await (const member of client.members.list({ campus: campus.key, limit: 100, sort: 'last_name' })) {
    ids.add(member.id);
    listed++;
  }
  report.list = { listed, distinct: ids.size };

  // 3. Errors, typed.
  report.errors = {
    notFound: await apiError(() => client.members.get(`mem_${'0'.repeat(32)}`)),
    invalid: await apiError(() =>
      client.members.create({ first_name: 'Ana', last_name: 'Ruiz', email: 'not-an-address' }),
    ),
  };

  // 4. Webhooks: an endpoint for a receiver here; a member created is delivered, signed, and verified.
  let secret = '';
  const hooks = await receiver(() => [secret]);
  const endpoint = await client.webhookEndpoints.create({
    url: `http://127.0.0.1:${hooks.port}/church`,
    events: ['member.created'],
  });
  secret = endpoint.secret ?? '';
  const subject = await client.members.create({ first_name: 'Webhook', last_name: `Hook-${run}` });
  const deadline = Date.now() + 30_000;
  while (!hooks.events.some((e) => e.type === 'member.created' && e.data.object.id === subject.id)) {
    if (Date.now() > deadline) throw new Error(`no member.created for ${subject.id} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const delivered = hooks.events.find((e) => e.type === 'member.created' && e.data.object.id === subject.id);
  report.webhook = {
    type: delivered?.type,
    firstName: delivered?.type === 'member.created' ? delivered.data.object.first_name : undefined,
    tampered: hooks.tampered,
  };
  hooks.server.close();
  await client.webhookEndpoints.delete(endpoint.id);

  // 5. The changes feed: a cursor for now, a change after it, followed until it arrives. The feed is
  // at least once: head's line is the oldest transaction running on the PostgreSQL server, in any
  // database, so the member's create may come first (an upsert with no previous_attributes).
  const { cursor } = await client.changes.head();
  await client.members.update(afterRetry.id, { phone: '+523312345678' });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 30_000);
  let found: Change | undefined;
  for await (const change of client.changes.follow({
    since: cursor,
    types: ['member'],
    intervalMs: 200,
    signal: stop.signal,
  })) {
    if (change.object_id === afterRetry.id && change.previous_attributes) {
      found = change;
      break;
    }
  }
  clearTimeout(timer);
  report.changes = {
    op: found?.op,
    objectId: found?.object_id,
    phone: (found?.object as { phone?: string } | null | undefined)?.phone,
    previous: found?.previous_attributes,
  };
}

if (process.env.SCENARIO === 'smoke') await smoke();
else await full();
console.log(JSON.stringify(report));
