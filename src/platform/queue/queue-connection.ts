/**
 * BullMQ connection options for one role of one queue (the name shows in Redis CLIENT LIST).
 * Workers need maxRetriesPerRequest null (blocking commands); producers fail fast instead, so a
 * request never waits on an unreachable Redis (the sweeper re-enqueues what was missed).
 */
export function queueConnection(redisUrl: string, name: string, role: 'producer' | 'worker') {
  return role === 'worker'
    ? { url: redisUrl, connectionName: `church-api-${name}`, maxRetriesPerRequest: null }
    : { url: redisUrl, connectionName: `church-api-${name}`, maxRetriesPerRequest: 1, enableOfflineQueue: false };
}
