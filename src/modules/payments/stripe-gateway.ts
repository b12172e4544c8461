import { Inject, Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PROCESSOR_EVENT_TYPES } from './payment-webhooks.path';

/** Stripe's own tolerance, in seconds, between a signature's timestamp and now (CONTRACT §12: 300 s). */
export const SIGNATURE_TOLERANCE_S = 300;
/** A call to the processor that takes longer is abandoned (502). */
const PROCESSOR_TIMEOUT_MS = 10_000;

export interface CreatedEndpoint {
  id: string;
  secret: string;
}

/**
 * The processor's API through the official `stripe` client, pointed at PAYMENTS_API_URL (host, port
 * and protocol; a path in the URL is not used). One client per call: each church has its own key.
 * Errors become AppErrors: a key the processor refuses is a 422 on `api_key`; a processor that
 * cannot be reached, times out or fails is a 502 `processor_unavailable`. Keys never reach a log.
 */
@Injectable()
export class StripeGateway {
  private readonly logger = new Logger('StripeGateway');
  private readonly target: { host: string; port: number; protocol: 'http' | 'https' };

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const url = new URL(config.PAYMENTS_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    this.target = {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(url.port || (protocol === 'http' ? 80 : 443)),
      protocol,
    };
  }

  /** Registers the church's inbound endpoint for the events it maps; returns its id and `whsec_` signing secret. */
  async createEndpoint(apiKey: string, url: string, tenant: string): Promise<CreatedEndpoint> {
    try {
      const endpoint = await this.client(apiKey).webhookEndpoints.create({
        url,
        enabled_events: [...PROCESSOR_EVENT_TYPES],
        api_version: Stripe.API_VERSION,
        description: `Church API: gifts of ${tenant}`,
        metadata: { tenant },
      });
      if (!endpoint.secret)
        throw new AppError('processor_unavailable', { reason: 'the processor returned no signing secret' });
      return { id: endpoint.id, secret: endpoint.secret };
    } catch (error) {
      throw this.translate(error, 'create the webhook endpoint');
    }
  }

  /**
   * Deletes the endpoint at the processor. An endpoint the processor no longer has (404), or a key
   * it no longer accepts (401/403: the church revoked it), leaves nothing more to do here: `false`.
   */
  async deleteEndpoint(apiKey: string, endpointId: string): Promise<boolean> {
    try {
      await this.client(apiKey).webhookEndpoints.del(endpointId);
      return true;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && [401, 403, 404].includes(error.statusCode ?? 0)) {
        this.logger.warn(
          `endpoint ${endpointId} not deleted at the processor (${error.statusCode}); it stays until removed in the processor's dashboard`,
        );
        return false;
      }
      throw this.translate(error, 'delete the webhook endpoint');
    }
  }

  /** Deletes an endpoint and swallows any failure (an old endpoint after a reconnect, a new one after a failed connect). */
  async deleteQuietly(apiKey: string, endpointId: string): Promise<void> {
    try {
      await this.deleteEndpoint(apiKey, endpointId);
    } catch {
      this.logger.warn(
        `endpoint ${endpointId} could not be deleted at the processor; it stays until removed in the processor's dashboard`,
      );
    }
  }

  /**
   * The event, once `Stripe-Signature` is verified over the raw body with the endpoint's secret
   * (stripe.webhooks.constructEvent, 300 s tolerance; a timestamp more than 300 s ahead is refused
   * too). Anything else is 400 `invalid_signature`.
   */
  verify(rawBody: Buffer | undefined, header: string | undefined, secret: string, now = Date.now()): Stripe.Event {
    if (!rawBody?.length || !header) throw new AppError('invalid_signature');
    const timestamp = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(header)?.[1]);
    if (Number.isFinite(timestamp) && timestamp - Math.floor(now / 1000) > SIGNATURE_TOLERANCE_S)
      throw new AppError('invalid_signature');
    try {
      return Stripe.webhooks.constructEvent(rawBody, header, secret, SIGNATURE_TOLERANCE_S, undefined, now);
    } catch {
      throw new AppError('invalid_signature');
    }
  }

  private client(apiKey: string): Stripe {
    return new Stripe(apiKey, {
      ...this.target,
      timeout: PROCESSOR_TIMEOUT_MS,
      maxNetworkRetries: 1,
      telemetry: false,
    });
  }

  private translate(error: unknown, action: string): AppError {
    if (error instanceof AppError) return error;
    if (
      error instanceof Stripe.errors.StripeAuthenticationError ||
      error instanceof Stripe.errors.StripePermissionError
    ) {
      return AppError.validation([
        {
          field: 'api_key',
          issue: 'rejected',
          params: {
            reason: `HTTP ${error.statusCode ?? 401}: the key is not valid or may not manage webhook endpoints`,
          },
        },
      ]);
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      return new AppError('processor_unavailable', {
        reason: `the processor refused to ${action}: ${oneLine(error.message)}`,
      });
    }
    if (error instanceof Stripe.errors.StripeError) {
      const status = error.statusCode ? `HTTP ${error.statusCode}` : 'no answer';
      return new AppError('processor_unavailable', { reason: `could not ${action} (${status})` });
    }
    this.logger.error(
      `unexpected failure calling the processor to ${action}: ${error instanceof Error ? error.name : typeof error}`,
    );
    return new AppError('processor_unavailable', { reason: `could not ${action}` });
  }
}

/** A processor message, on one line and short (it is shown in a problem's detail). */
function oneLine(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
