import type { ConnectionOptions } from 'bullmq';
import Redis, { Cluster, type ClusterNode, type RedisOptions } from 'ioredis';
import type { AppConfig } from '../../config/app-config';

/**
 * A client of the configured Redis: an ioredis `Cluster` with REDIS_CLUSTER_NODES, else a plain
 * client of REDIS_URL. Both speak the same commands; on a cluster, the keys of one script,
 * pipeline or MULTI share a hash tag (`{tenant}`, `{prefix:queue}`) so that they live in one slot.
 */
export type RedisClient = Redis | Cluster;

/** Whether the processes share a Redis (plain or cluster); without one, background work runs in-process. */
export function redisConfigured(config: AppConfig): boolean {
  return config.REDIS_CLUSTER_NODES !== undefined || config.REDIS_URL !== undefined;
}

/** `host:port,[::1]:port` → ioredis seed nodes. */
export function clusterNodes(list: string): ClusterNode[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      return { host: entry.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(entry.slice(colon + 1)) };
    });
}

/**
 * The one place a Redis connection is made: to the cluster when REDIS_CLUSTER_NODES is set (the
 * per-node options go to every node's connection), else to REDIS_URL; null without either.
 */
export function createRedisClient(config: AppConfig, options: RedisOptions): RedisClient | null {
  if (config.REDIS_CLUSTER_NODES) {
    const { enableOfflineQueue, ...redisOptions } = options;
    return new Cluster(clusterNodes(config.REDIS_CLUSTER_NODES), { enableOfflineQueue, redisOptions });
  }
  return config.REDIS_URL ? new Redis(config.REDIS_URL, options) : null;
}

const QUEUE_CLIENT = { connectionName: 'church-api-queues', enableOfflineQueue: false };

/**
 * BullMQ's connection. On a plain Redis, options: each queue and worker opens (and closes) its
 * own clients. BullMQ opens only plain clients from options, so on a cluster it is one `Cluster`
 * that the queues and workers' main connections share (its owner closes it), and that each
 * worker duplicates for its blocking reads.
 */
export function queueConnection(config: AppConfig): ConnectionOptions | null {
  if (config.REDIS_CLUSTER_NODES) return createRedisClient(config, QUEUE_CLIENT);
  return config.REDIS_URL ? { url: config.REDIS_URL, ...QUEUE_CLIENT } : null;
}

/**
 * A queue's key prefix. BullMQ's scripts touch many keys of a queue at once, so on a cluster the
 * prefix is a hash tag of its own per queue (`{church:mail}`): each queue lives in one slot, and
 * the queues spread over the nodes. A plain Redis keeps the configured prefix as it is.
 */
export function queuePrefix(config: AppConfig, queue: string): string {
  return config.REDIS_CLUSTER_NODES ? `{${config.QUEUE_PREFIX}:${queue}}` : config.QUEUE_PREFIX;
}
