import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/**
 * Starts the worker process's BullMQ consumers once the database is connected (processors are
 * declared with `autorun: false`), and stops them before the queues and the database close: the
 * jobs they are running finish first.
 */
@Injectable()
export class QueueWorkers implements OnModuleDestroy {
  private readonly logger = new Logger('QueueWorkers');
  private started: WorkerHost[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  start(): void {
    this.started = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost);
    for (const host of this.started) {
      host.worker.on('error', (error) => this.logger.warn(`queue '${host.worker.name}': ${error.message}`));
      host.worker
        .run()
        .catch((error: unknown) => this.logger.error(`queue '${host.worker.name}' stopped: ${String(error)}`));
    }
    this.logger.log(`processing queues: ${this.started.map((host) => host.worker.name).join(', ')}`);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.started.map((host) => host.worker.close()));
  }
}
