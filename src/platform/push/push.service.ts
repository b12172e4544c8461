import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

const PUSH_TIMEOUT_MS = 5_000;

/** A device registration token, or a topic the user's devices subscribe to. */
export type PushTarget = { token: string } | { topic: string };

export interface PushMessage {
  target: PushTarget;
  title: string;
  body: string;
  /** FCM data values are strings. */
  data?: Record<string, string>;
}

/** The topic of one staff user's devices (`usr_…` is the user's public id). */
export const userTopic = (publicUserId: string) => `user_${publicUserId}`;

/**
 * Posts an FCM HTTP v1-shaped message ({"message": {token|topic, notification, data}}) to
 * PUSH_GATEWAY_URL; with it unset the push is only logged. A non-2xx answer or a time-out throws.
 */
@Injectable()
export class PushService {
  private readonly logger = new Logger('Push');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async send(push: PushMessage): Promise<void> {
    const url = this.config.PUSH_GATEWAY_URL;
    if (!url) {
      this.logger.log(
        `PUSH_GATEWAY_URL unset, push not sent: to ${'topic' in push.target ? `topic ${push.target.topic}` : `device token …${push.target.token.slice(-8)}`}`,
      );
      return;
    }
    const message = { ...push.target, notification: { title: push.title, body: push.body }, data: push.data ?? {} };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    // The URL may carry a key in its query string, so the error names the status only.
    if (!res.ok) throw new Error(`push gateway answered ${res.status}`);
  }
}
