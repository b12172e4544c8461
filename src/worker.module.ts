import { Module } from '@nestjs/common';
import { CoreModule } from './core.module';
import { NoticesModule } from './platform/notices/notices.module';
import { WebhooksWorkerModule } from './platform/webhooks/webhooks-worker.module';

/** The BullMQ worker's module graph: the shared modules plus the queue processors. */
@Module({ imports: [CoreModule, NoticesModule, WebhooksWorkerModule] })
export class WorkerModule {}
