import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Public } from '../auth/auth.decorator';
import { MetricsService } from './metrics.service';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` for Prometheus (CONTRACT §22): only with `Authorization: Bearer $METRICS_TOKEN`
 * (401 otherwise); 404 when METRICS_TOKEN is unset. Not a client route: outside the OpenAPI document.
 */
@ApiExcludeController()
@Controller()
export class MetricsController {
  private readonly token?: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.token = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : undefined;
  }

  @Get('metrics')
  @Public({ addressLimit: false }) // scrapers, every few seconds
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() res: Response): Promise<void> {
    if (!this.token) throw new AppError('route_not_found', { method: 'GET', path: '/metrics' });
    const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    if (!given || !timingSafeEqual(digest(given), this.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized');
    }
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await this.metrics.scrape());
  }
}
