import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { TestApi } from '../support/api';
import { newMembers, newTenant, newWebhookEndpoint, TestTenant } from '../support/factories';
import { TestReceiver } from '../support/receiver';
import { clearRedisEnv, clusterKeys, redisEnv, testRedis } from '../support/redis';
import { waitFor } from '../support/wait';
import { startWorker } from '../support/worker';

/**
 * Every Redis use on a Redis Cluster (CONTRACT §22): the API and a worker get REDIS_CLUSTER_NODES
 * (the loopback cluster of .ci/redis-cluster.sh, which the `cluster` jest project starts) and a
 * REDIS_URL where nothing answers, so a use that bypassed the cluster fails here. The keys the
 * tests find on the cluster's masters show where each use went and that its hash tag holds.
 */
describe('on a Redis Cluster, with REDIS_URL pointing where nothing answers', () => {
  const prefix = `rc-${randomBytes(3).toString('hex')}`;
  let api: TestApi;
  let worker: INestApplicationContext;
  let receiver: TestReceiver;
  let cluster: Cluster;
  let church: TestTenant;
  const call = () => ({ token: church.token, tenant: church.slug });

  beforeAll(async () => {
    const env: Record<string, string> = {
      ...redisEnv(),
      QUEUE_PREFIX: prefix,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s,4s,5s',
    };
    expect(env.REDIS_CLUSTER_NODES).toBeDefined();
    receiver = await TestReceiver.start();
    api = await TestApi.start(env);
    worker = await startWorker(env);
    cluster = testRedis() as Cluster;
    church = await newTenant(api, { plan: 'starter' });
    // The cluster client connects in the background: until it is ready, the limiter falls back to memory.
    await waitFor(async () => (await api.get('/readyz')).status === 200, { what: '/readyz to answer 200' });
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver?.close();
    cluster?.disconnect();
    clearRedisEnv();
  });

  it('/readyz reports Redis ok: the cluster answers, not REDIS_URL', async () => {
    const res = await api.get<{ checks: { redis: string } }>('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.checks.redis).toBe('ok');
  });

  it('delivers webhooks through the queue on the cluster, every key of the queue under its own hash tag', async () => {
    const path = `/hooks/${prefix}`;
    await newWebhookEndpoint(api, church, { url: receiver.url(path), events: ['member.created'] });
    const ids = await newMembers(api, church, [
      { first_name: 'Ana', last_name: 'Cluster' },
      { first_name: 'Bob', last_name: 'Cluster' },
    ]);
    const received = await receiver.waitForCount(path, ids.length, 20_000);
    expect(
      received.map((r) => (JSON.parse(r.rawBody) as { data: { object: { id: string } } }).data.object.id).sort(),
    ).toEqual([...ids].sort());
    const keys = await clusterKeys(cluster, `*${prefix}*`);
    const tag = `{${prefix}:webhook-deliveries}`;
    expect(keys.filter((k) => k.includes('webhook-deliveries')).length).toBeGreaterThan(0);
    expect(keys.filter((k) => k.includes('webhook-deliveries') && !k.startsWith(`${tag}:webhook-deliveries:`))).toEqual(
      [],
    );
  });

  it('runs a background job (a notification fan-out) through its own queue on the cluster', async () => {
    const [member] = await newMembers(api, church, [
      { first_name: 'Cid', last_name: 'Cluster', email: `cid-${prefix}@example.org` },
    ]);
    const sent = await api.post<{ id: string }>('/v1/notifications', {
      ...call(),
      body: { title: 'Cluster', body: 'Through the queue.', channels: ['email'], audience: { member_ids: [member] } },
    });
    expect(sent.status).toBe(202);
    const done = await waitFor(
      async () => {
        const res = await api.get<{ status: string }>(`/v1/notifications/${sent.body.id}`, call());
        return res.body.status === 'sent' ? res.body : null;
      },
      { what: 'the notification to be sent', timeout: 20_000 },
    );
    expect(done.status).toBe('sent');
    const keys = await clusterKeys(cluster, `{${prefix}:notifications}:notifications:*`);
    expect(keys.length).toBeGreaterThan(0);
  });

  it("counts a starter church's burst on the cluster: 429 past it, its buckets and usage keys in the church's slot", async () => {
    const starter = await newTenant(api, { plan: 'starter' });
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, () =>
            api.get('/v1/members?limit=1', { token: starter.token, tenant: starter.slug }).then((r) => r.status),
          ),
        )),
      );
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const buckets = await clusterKeys(cluster, `rl:{${starter.id}}:*`);
    expect(buckets.length).toBeGreaterThan(0);
    const usage = await waitFor(
      async () => {
        const keys = await clusterKeys(cluster, `usage:{${starter.id}}:*`);
        return keys.length > 0 ? keys : null;
      },
      { what: "the church's usage keys" },
    );
    const slots = new Set(await Promise.all([...buckets, ...usage].map((k) => cluster.cluster('KEYSLOT', k))));
    expect(slots.size).toBe(1);
  });

  it('caches list totals on the cluster: the cached total is served until a write changes the version', async () => {
    const list = () => api.get<{ total: number }>('/v1/members?limit=1', call());
    const first = await list();
    expect(first.status).toBe(200);
    const versionKey = `totals:{${church.id}}:members:v`;
    const version = (await cluster.get(versionKey)) ?? '0';
    const hashKey = `totals:{${church.id}}:members:${version}`;
    const [field] = await waitFor(
      async () => {
        const fields = await cluster.hkeys(hashKey);
        return fields.length > 0 ? fields : null;
      },
      { what: 'the total to be cached' },
    );
    // Planted under a version this process has not seen (totals it has seen, it keeps in memory).
    const planted = `planted-${randomUUID()}`;
    await cluster.hset(`totals:{${church.id}}:members:${planted}`, field, '4242');
    await cluster.set(versionKey, planted);
    expect((await list()).body.total).toBe(4242);
    await newMembers(api, church, [{ first_name: 'Dee', last_name: 'Cluster' }]);
    await waitFor(async () => (await list()).body.total === first.body.total + 1, {
      what: 'a fresh count after the write',
    });
  });
});
