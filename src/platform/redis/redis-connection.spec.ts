import 'reflect-metadata';
import { ConfigError, validateEnvironment } from '../../config/app-config';
import { clusterNodes, queuePrefix, redisConfigured } from './redis-connection';

describe('Redis connection settings', () => {
  it('reads REDIS_CLUSTER_NODES as seed nodes, IPv6 in brackets', () => {
    expect(clusterNodes('redis-1:7001, 10.0.0.2:7002,[::1]:7003')).toEqual([
      { host: 'redis-1', port: 7001 },
      { host: '10.0.0.2', port: 7002 },
      { host: '::1', port: 7003 },
    ]);
  });

  it('refuses a REDIS_CLUSTER_NODES that is not a list of host:port, naming it', () => {
    for (const value of ['redis-1', 'redis://a:1', 'a:1,,b:2', 'a:1;b:2']) {
      const load = () => validateEnvironment({ REDIS_CLUSTER_NODES: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(`REDIS_CLUSTER_NODES=${JSON.stringify(value)}`);
    }
  });

  it('counts either variable as Redis; an empty one as unset', () => {
    expect(redisConfigured(validateEnvironment({}))).toBe(false);
    expect(redisConfigured(validateEnvironment({ REDIS_CLUSTER_NODES: '' }))).toBe(false);
    expect(redisConfigured(validateEnvironment({ REDIS_URL: 'redis://cache:6379' }))).toBe(true);
    expect(redisConfigured(validateEnvironment({ REDIS_CLUSTER_NODES: 'a:7001,b:7002' }))).toBe(true);
  });

  it('gives each queue a hash tag of its own on a cluster, and keeps QUEUE_PREFIX on a plain Redis', () => {
    const plain = validateEnvironment({ REDIS_URL: 'redis://cache:6379', QUEUE_PREFIX: 'church' });
    const cluster = validateEnvironment({ REDIS_CLUSTER_NODES: 'a:7001', QUEUE_PREFIX: 'church' });
    expect(queuePrefix(plain, 'mail')).toBe('church');
    expect(queuePrefix(cluster, 'mail')).toBe('{church:mail}');
    expect(queuePrefix(cluster, 'webhook-deliveries')).toBe('{church:webhook-deliveries}');
  });
});
