import { TEST_CLUSTER_NODES } from './redis';

// The `cluster` jest project: the files it runs take the loopback Redis Cluster as the suite's Redis (see redis.ts, redisEnv).
process.env.TEST_REDIS_CLUSTER_NODES ||= TEST_CLUSTER_NODES;
