import { Injectable, OnModuleInit } from '@nestjs/common';
import { Database } from '../../database/database.service';
import { MailerService } from '../../platform/mail/mailer.service';
import { HealthNotices } from '../../platform/outbox/delivery/health-notices';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { EndpointResponse } from './dto/endpoint.response';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

type Notice = 'failing' | 'recovered' | 'disabled';

/**
 * Tells a church about its endpoints' health (CONTRACT §18). The delivery engine leaves a notice
 * in the batch that changed an endpoint's state; this takes it and, in the same transaction, raises
 * the event to the church's other endpoints and queues one mail to each org_admin, so a notice is
 * given exactly once or stays for the sweeper.
 */
@Injectable()
export class WebhookEndpointHealthService implements OnModuleInit {
  constructor(
    private readonly notices: HealthNotices,
    private readonly db: Database,
    private readonly webhooks: WebhookEndpointsRepository,
    private readonly endpoints: WebhookEndpointsService,
    private readonly outbox: OutboxService,
    private readonly mailer: MailerService,
  ) {}

  onModuleInit(): void {
    this.notices.register((tenantId, ids) => this.tell(tenantId, ids));
  }

  async tell(tenantId: string, endpointIds: string[]): Promise<void> {
    await this.db.runInTenant({ tenantId, actor: { kind: 'worker' } }, async () => {
      const taken = await this.webhooks.takeNotices(endpointIds);
      if (!taken.length) return;
      const ids = taken.map((t) => t.endpoint_id);
      const [endpoints, errors, admins] = await Promise.all([
        this.endpoints.getMany(ids),
        this.webhooks.lastErrors(ids),
        this.webhooks.orgAdminEmails(),
      ]);
      for (const { endpoint_id: id, notice } of taken) {
        const endpoint = endpoints.get(id);
        if (!endpoint) continue;
        const lastError = errors.get(id) ?? null;
        if (notice === 'failing')
          await this.outbox.recordMany('webhook_endpoint.failing', [endpoint], [{ last_error: lastError }], [id]);
        if (notice === 'disabled')
          await this.outbox.recordMany('webhook_endpoint.disabled', [endpoint], undefined, [id]);
        for (const to of admins) await this.mailer.enqueueInTransaction({ to, ...mail(notice, endpoint, lastError) });
      }
    });
  }
}

/** The mail of a notice, in Spanish and English (the church's staff read either). */
function mail(notice: Notice, endpoint: EndpointResponse, lastError: string | null): { subject: string; text: string } {
  const error = lastError ?? 'unknown';
  const { url, id } = endpoint;
  switch (notice) {
    case 'failing': {
      const at = endpoint.health.disable_at ?? 'unknown';
      return {
        subject: 'Webhook endpoint failing / Endpoint de webhook con fallas',
        text:
          `Su endpoint de webhook ${url} (${id}) falló ${endpoint.health.consecutive_failures} veces seguidas; último error: ${error}. ` +
          `Si ningún intento tiene éxito antes de ${at}, será desactivado.\n\n` +
          `Your webhook endpoint ${url} (${id}) failed ${endpoint.health.consecutive_failures} times in a row; last error: ${error}. ` +
          `Unless an attempt succeeds before ${at}, it will be disabled.`,
      };
    }
    case 'recovered':
      return {
        subject: 'Webhook endpoint recovered / Endpoint de webhook recuperado',
        text:
          `Su endpoint de webhook ${url} (${id}) volvió a responder 2xx; las entregas siguen con normalidad.\n\n` +
          `Your webhook endpoint ${url} (${id}) answers 2xx again; deliveries go on as usual.`,
      };
    case 'disabled':
      return {
        subject: 'Webhook endpoint disabled / Endpoint de webhook desactivado',
        text:
          `Su endpoint de webhook ${url} (${id}) fue desactivado (${endpoint.disabled_reason ?? error}). ` +
          `Reactívelo con PATCH /v1/webhook-endpoints/${id} {"status": "enabled"} cuando responda 2xx.\n\n` +
          `Your webhook endpoint ${url} (${id}) was disabled (${endpoint.disabled_reason ?? error}). ` +
          `Re-enable it with PATCH /v1/webhook-endpoints/${id} {"status": "enabled"} once it answers 2xx.`,
      };
  }
}
