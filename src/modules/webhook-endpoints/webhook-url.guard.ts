import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { assertWebhookUrl } from '../../platform/outbox/url-guard';

/**
 * Refuses a webhook URL that is not https or resolves to a private, loopback or link-local
 * address (422 `invalid_webhook_url`), before the request's transaction opens: the DNS lookup
 * holds no database connection. A body whose `url` is not a string is left to validation.
 */
@Injectable()
export class WebhookUrlGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const url = (context.switchToHttp().getRequest<Request>().body as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string') await assertWebhookUrl(url, this.config.WEBHOOK_ALLOW_LOOPBACK);
    return true;
  }
}
