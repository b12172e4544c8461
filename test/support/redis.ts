import type { ConnectionOptions } from 'bullmq';
import type { Cluster } from 'ioredis';
import { validateEnvironment } from '../../src/config/app-config';
import {
  createRedisClient,
  queueConnection,
  queuePrefix,
  RedisClient,
} from '../../src/platform/redis/redis-connection';
import { TEST_REDIS_URL } from './test-env';

/** The loopback cluster of .ci/redis-cluster.sh. */
export const TEST_CLUSTER_NODES = '127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003';
/** A Redis address where nothing answers: what REDIS_URL says during a run on the cluster. */
export const CLOSED_REDIS_URL = 'redis://127.0.0.1:1';

/** Set by the `cluster` jest project (test/support/on-redis-cluster.ts): the suite's Redis is the cluster. */
export function onCluster(): boolean {
  return Boolean(process.env.TEST_REDIS_CLUSTER_NODES);
}

/**
 * The environment that gives an app or a worker the suite's Redis: TEST_REDIS_URL, or in the
 * `cluster` project the cluster, with REDIS_URL pointing where nothing answers, so that any Redis
 * use that bypassed the cluster would fail the test.
 */
export function redisEnv(): Record<string, string> {
  return onCluster()
    ? { REDIS_CLUSTER_NODES: process.env.TEST_REDIS_CLUSTER_NODES!, REDIS_URL: CLOSED_REDIS_URL }
    : { REDIS_URL: TEST_REDIS_URL };
}

/** The environment of a process with no Redis at all (background work in-process). */
export const NO_REDIS_ENV = { REDIS_URL: '', REDIS_CLUSTER_NODES: '' };

/** Forgets what redisEnv() put in this file's process.env. */
export function clearRedisEnv(): void {
  delete process.env.REDIS_URL;
  delete process.env.REDIS_CLUSTER_NODES;
}

const suiteConfig = (queuePrefixSetting = process.env.QUEUE_PREFIX ?? 'church') =>
  validateEnvironment({ ...redisEnv(), QUEUE_PREFIX: queuePrefixSetting });

/** A client of the suite's Redis (plain or cluster), made as the app makes its own, for a test's own reads. */
export function testRedis(): RedisClient {
  return createRedisClient(suiteConfig(), {})!;
}

/**
 * A BullMQ `connection` and `prefix` for a test's own Queue or QueueEvents on `queue`, as the app
 * computes them. Close the BullMQ object, then `closeConnection(connection)`: BullMQ leaves a
 * shared cluster client open.
 */
export function testQueueOptions(queue: string, prefix: string): { connection: ConnectionOptions; prefix: string } {
  const config = suiteConfig(prefix);
  return { connection: queueConnection(config)!, prefix: queuePrefix(config, queue) };
}

export function closeConnection(connection: ConnectionOptions): void {
  const client = connection as { disconnect?: () => void };
  if (typeof client.disconnect === 'function') client.disconnect();
}

/** The keys matching `pattern` on every master of `cluster` (KEYS answers for one node's slots only). */
export async function clusterKeys(cluster: Cluster, pattern: string): Promise<string[]> {
  const perNode = await Promise.all(cluster.nodes('master').map((node) => node.keys(pattern)));
  return perNode.flat();
}
