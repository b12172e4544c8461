import { Module } from '@nestjs/common';
import { CoreModule } from './core.module';

/** The BullMQ worker's module graph: the shared modules plus the queue processors (none registered yet). */
@Module({ imports: [CoreModule] })
export class WorkerModule {}
