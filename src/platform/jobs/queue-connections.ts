import { getQueueToken } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { QUEUES } from './queues';
import { redisConfigured } from '../redis/redis-connection';

/** How long to wait for a queue's client before leaving it to BullMQ's own close. */
const CLIENT_WAIT_MS = 200;

/**
 * The producer queues' connections. A queue's connection errors (Redis away) are logged here:
 * without a listener BullMQ prints them with console.error. And a queue whose Redis went away
 * keeps an ioredis reconnect timer, which BullMQ's close (a QUIT that cannot be sent) leaves
 * running: the process would never exit. Before the queues close, a client that is not connected
 * is disconnected, which clears its timer.
 */
@Injectable()
export class QueueConnections implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Queues');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    for (const queue of this.queues())
      queue.on('error', (error) => this.logger.warn(`queue '${queue.name}' connection: ${error.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues().map((queue) => this.dropIfDisconnected(queue)));
  }

  private queues(): Queue[] {
    return redisConfigured(this.config)
      ? Object.values(QUEUES).map((name) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }))
      : [];
  }

  private async dropIfDisconnected(queue: Queue): Promise<void> {
    const client = await Promise.race([
      queue.getBackend().client,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), CLIENT_WAIT_MS).unref()),
    ]).catch(() => null);
    if (client && client.status !== 'ready' && client.status !== 'end') client.disconnect();
  }
}
