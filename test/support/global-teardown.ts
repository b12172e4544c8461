import Redis, { Cluster } from 'ioredis';
import { Client } from 'pg';
import { TEST_CLUSTER_NODES } from './redis';
import { clusterNodes } from '../../src/platform/redis/redis-connection';
import { ADMIN_DATABASE_URL, TEST_REDIS_URL } from './test-env';

/** Deletes the keys matching `pattern` on one Redis node. */
async function deleteKeys(node: Redis, pattern: string): Promise<void> {
  for await (const keys of node.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>)
    for (const key of keys) await node.unlink(key); // one by one: on a cluster node, keys of different slots
}

/** The run's Redis keys (global-setup.ts: QUEUE_PREFIX is the database's name), on the Redis and, if the run used it, on the cluster. */
async function deleteRunKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis
    .connect()
    .then(() => deleteKeys(redis, `${prefix}:*`))
    .catch(() => undefined);
  redis.disconnect();
  if (process.env.TEST_RUN_ON_CLUSTER !== 'true') return;
  const cluster = new Cluster(clusterNodes(TEST_CLUSTER_NODES), {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
  });
  cluster.on('error', () => undefined);
  await cluster
    .connect()
    .then(() => Promise.all(cluster.nodes('master').map((node) => deleteKeys(node, `{${prefix}:*`))))
    .catch(() => undefined);
  cluster.disconnect();
}

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_DATABASE_NAME;
  if (!name || process.env.KEEP_TEST_DATABASE === 'true') return;
  await deleteRunKeys(name);
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
