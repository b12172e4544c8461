import { Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** Sends the spans still buffered once everything else has shut down (workers finished their jobs). */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/** The process's tracing (started by the entry points, see tracing.ts), flushed at shutdown. */
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
