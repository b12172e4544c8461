import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startBackground } from '../../src/background';
import { loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { WorkerModule } from '../../src/worker.module';

/** The worker process as src/worker.ts starts it (BullMQ consumers with REDIS_URL), configured by `env` on top of the test environment, in this process. */
export async function startWorker(env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(loadConfig()), { logger: ['error'] });
    await worker.get(Database).connect();
    startBackground(worker, 'worker');
    return worker;
  } finally {
    process.env = saved;
  }
}
