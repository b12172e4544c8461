import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { RedisClient } from '../redis/redis-connection';
import { Database } from '../../database/database.service';
import { Public } from '../auth/auth.decorator';
import { REDIS } from '../redis/redis.module';

/** How long readiness waits for PostgreSQL (a connection and `SELECT 1`) before it says not ready. */
const READY_DB_TIMEOUT_MS = 2_000;

type Check = 'ok' | 'failed' | 'disabled';

const READY_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready'], example: 'ready' },
    checks: {
      type: 'object',
      properties: {
        database: { type: 'string', enum: ['ok', 'failed'], example: 'ok' },
        redis: { type: 'string', enum: ['ok', 'failed', 'disabled'], example: 'ok' },
      },
    },
  },
};

@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(
    private readonly db: Database,
    @Inject(REDIS) private readonly redis: RedisClient | null,
  ) {}

  @Get('healthz')
  @Public({ addressLimit: false }) // liveness probes
  @ApiOperation({ summary: 'Liveness and database reachability' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { status: { type: 'string', example: 'ok' }, database: { type: 'string', example: 'ok' } },
    },
  })
  async health(): Promise<{ status: string; database: string }> {
    await this.db.platform.query('SELECT 1');
    return { status: 'ok', database: this.db.isEmbedded ? 'embedded' : 'ok' };
  }

  /** Readiness (CONTRACT §22): PostgreSQL answers, and Redis when one is configured (REDIS_URL or REDIS_CLUSTER_NODES); 503 naming what failed. */
  @Get('readyz')
  @Public({ addressLimit: false }) // readiness probes
  @ApiOperation({ summary: 'Readiness: PostgreSQL (and Redis when configured) answer' })
  @ApiOkResponse({ schema: READY_SCHEMA })
  @ApiServiceUnavailableResponse({
    description: 'A dependency does not answer; `checks` names it.',
    schema: READY_SCHEMA,
  })
  async ready(
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ status: 'ready' | 'not_ready'; checks: { database: Check; redis: Check } }> {
    const [database, redis] = await Promise.all([this.checkDatabase(), this.checkRedis()]);
    const ready = database === 'ok' && redis !== 'failed';
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not_ready', checks: { database, redis } };
  }

  private async checkDatabase(): Promise<Check> {
    try {
      await this.db.ping(READY_DB_TIMEOUT_MS);
      return 'ok';
    } catch {
      return 'failed';
    }
  }

  private async checkRedis(): Promise<Check> {
    if (!this.redis) return 'disabled';
    try {
      return (await this.redis.ping()) === 'PONG' ? 'ok' : 'failed';
    } catch {
      return 'failed';
    }
  }
}
