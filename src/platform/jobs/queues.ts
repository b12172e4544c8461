/**
 * Every BullMQ queue: one per kind of background work. A job kind of the job tables
 * is the name of its queue; webhook deliveries keep their own outbox table.
 */
export const QUEUES = {
  webhookDeliveries: 'webhook-deliveries',
  tokenExpiry: 'token-expiry',
  mail: 'mail',
  mailRetention: 'mail-retention',
  changeRetention: 'change-retention',
  statements: 'statements',
  notifications: 'notifications',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
export type JobKind = Exclude<QueueName, typeof QUEUES.webhookDeliveries>;

/** What a BullMQ job of a background-job queue carries: the row's key, nothing else. */
export interface JobRef {
  jobId: string;
  /** Null for a platform job. */
  tenantId: string | null;
}
