import { getQueueToken } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { QUEUES } from './queues';

/** How long to wait for a queue's client before leaving it to BullMQ's own close. */
const CLIENT_WAIT_MS = 200;

/**
 * A queue whose Redis went away keeps an ioredis reconnect timer, and BullMQ's close (a QUIT that
 * cannot be sent) leaves it running: the process would never exit. Before the queues close, a
 * client that is not connected is disconnected, which clears its timer.
 */
@Injectable()
export class QueueConnections implements BeforeApplicationShutdown {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.config.REDIS_URL) return;
    await Promise.all(Object.values(QUEUES).map((name) => this.dropIfDisconnected(this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }))));
  }

  private async dropIfDisconnected(queue: Queue): Promise<void> {
    const client = await Promise.race([queue.getBackend().client, new Promise<null>((resolve) => setTimeout(() => resolve(null), CLIENT_WAIT_MS).unref())]).catch(() => null);
    if (client && client.status !== 'ready' && client.status !== 'end') client.disconnect();
  }
}
