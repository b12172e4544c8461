import { Inject, Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { SECRET_BOX } from '../../common/crypto/crypto.module';
import type { SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import type { ConnectPaymentProcessorDto } from './dto/connect-payment-processor.dto';
import type { PaymentProcessorResponse } from './dto/payment-processor.response';
import { PaymentProcessorEntity } from './payment-processor.entity';
import { PAYMENT_WEBHOOKS_PATH, Provider } from './payment-webhooks.path';
import { PaymentsRepository } from './payments.repository';
import { StripeGateway } from './stripe-gateway';

/**
 * The church's payment processor setting (CONTRACT §12). Connecting registers the church's inbound
 * endpoint at the processor and keeps the key and the endpoint's signing secret sealed; neither is
 * ever returned or logged.
 */
@Injectable()
export class PaymentProcessorService {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly gateway: StripeGateway,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
  ) {}

  async get(): Promise<PaymentProcessorResponse> {
    return this.toResponse(await this.repo.findProcessor());
  }

  /**
   * Creates the endpoint at the processor with this key, then stores it. Runs @OutsideTransaction:
   * no database connection waits on the processor. The row is written in a short transaction that
   * locks it, so concurrent PUTs are stored one after the other and the last wins; the endpoint a
   * PUT replaced (or, when storing fails, the one it made) is deleted at the processor afterwards.
   */
  async connect(dto: ConnectPaymentProcessorDto): Promise<PaymentProcessorResponse> {
    if (!this.config.PUBLIC_URL) throw new AppError('public_url_required');
    const slug = await this.db.transaction(() => this.repo.tenantSlug());
    const endpoint = await this.gateway.createEndpoint(dto.api_key, this.webhookUrl(slug), slug);
    let stored: { processor: PaymentProcessorEntity; replaced: PaymentProcessorEntity | null };
    try {
      stored = await this.db.transaction(() => this.store(dto, endpoint));
    } catch (error) {
      await this.gateway.deleteQuietly(dto.api_key, endpoint.id);
      throw error;
    }
    const { processor, replaced } = stored;
    if (replaced) await this.gateway.deleteQuietly(this.box.open(replaced.apiKeySealed), replaced.endpointId);
    return this.respond(processor, slug);
  }

  /**
   * Deletes the endpoint at the processor, then the connection (@OutsideTransaction, as connect). A
   * processor that cannot be reached is a 502 and changes nothing (retry); one that no longer has the
   * endpoint, or no longer takes the key, does not stop the disconnect. A reconnection that landed
   * meanwhile is kept (409 `conflict`).
   */
  async disconnect(): Promise<void> {
    const processor = await this.db.transaction(() => this.repo.findProcessor());
    if (!processor) throw AppError.notFound('payment processor');
    await this.gateway.deleteEndpoint(this.box.open(processor.apiKeySealed), processor.endpointId);
    const removed = await this.db.transaction(async () => {
      const current = await this.repo.findProcessor('pessimistic_write');
      if (current?.endpointId !== processor.endpointId) return current === null;
      await this.repo.deleteProcessor(current.id);
      return true;
    });
    if (!removed) throw new AppError('conflict', { reason: 'the payment processor was reconnected meanwhile' });
  }

  /** Inserts or replaces the church's connection (its row locked); what it replaced, if anything. */
  private async store(
    dto: ConnectPaymentProcessorDto,
    endpoint: { id: string; secret: string },
  ): Promise<{ processor: PaymentProcessorEntity; replaced: PaymentProcessorEntity | null }> {
    const now = new Date();
    const fields = {
      provider: dto.provider as Provider,
      apiKeySealed: this.box.seal(dto.api_key),
      webhookSecretSealed: this.box.seal(endpoint.secret),
      endpointId: endpoint.id,
      accountLast4: dto.api_key.slice(-4),
      connectedAt: now,
      updatedAt: now,
    };
    let previous = await this.repo.findProcessor('for_no_key_update');
    if (
      !previous &&
      !(await this.repo.insertProcessor(
        Object.assign(new PaymentProcessorEntity(), {
          tenantId: TenantContext.current().tenantId,
          id: newUuid(),
          ...fields,
        }),
      ))
    ) {
      // A concurrent connect inserted first and has committed: this one replaces it, as a later PUT would.
      previous = await this.repo.findProcessor('for_no_key_update');
    }
    if (previous) await this.repo.updateProcessor(previous.id, fields);
    return { processor: Object.assign(new PaymentProcessorEntity(), { ...previous, ...fields }), replaced: previous };
  }

  private webhookUrl(slug: string): string {
    return `${this.config.PUBLIC_URL!.replace(/\/+$/, '')}${PAYMENT_WEBHOOKS_PATH}/${slug}`;
  }

  private async toResponse(processor: PaymentProcessorEntity | null): Promise<PaymentProcessorResponse> {
    if (!processor) return { provider: null, connected_at: null, account_last4: null, webhook_url: null };
    return this.respond(processor, await this.repo.tenantSlug());
  }

  private respond(processor: PaymentProcessorEntity, slug: string): PaymentProcessorResponse {
    return {
      provider: processor.provider,
      connected_at: processor.connectedAt.toISOString(),
      account_last4: processor.accountLast4,
      webhook_url: this.config.PUBLIC_URL ? this.webhookUrl(slug) : null,
    };
  }
}
