import { Injectable, Logger } from '@nestjs/common';

/** Tells a church what changed in its endpoints' health: takes the notices of these endpoints. */
export type HealthNoticeHandler = (tenantId: string, endpointIds: string[]) => Promise<void>;

/**
 * Where the delivery engine hands over health notices (CONTRACT §18). The webhook-endpoints module,
 * which knows how an endpoint is shown, registers the handler (a layer above this one); a notice
 * that is not taken stays in the table for the sweeper.
 */
@Injectable()
export class HealthNotices {
  private readonly logger = new Logger('WebhookHealth');
  private handler: HealthNoticeHandler | null = null;

  register(handler: HealthNoticeHandler): void {
    this.handler = handler;
  }

  /** Never throws: a notice that fails is left for the sweeper. */
  async give(tenantId: string, endpointIds: string[]): Promise<void> {
    if (!endpointIds.length || !this.handler) return;
    try {
      await this.handler(tenantId, endpointIds);
    } catch (error) {
      this.logger.warn(`health notices of ${endpointIds.length} endpoint(s) left for the sweeper: ${String(error)}`);
    }
  }
}
