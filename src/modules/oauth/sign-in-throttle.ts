import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { OAuthRepository } from './oauth.repository';

/** Failed sign-ins allowed per account (church + e-mail) and per client address within the window. */
export const SIGN_IN_LIMITS = { perAccount: 5, perAddress: 20, windowSeconds: 15 * 60 } as const;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * What a failure is counted under: the SHA-256 (hex) of the e-mail as typed, trimmed and
 * lower-cased (an unknown e-mail counts too), and of the client address. Digests, not the text:
 * what people type into an e-mail field (sometimes a password) and their addresses are not kept.
 */
export function accountKey(email: string): string {
  return digest(email.trim().toLowerCase());
}

export function addressKey(address: string): string {
  return digest(address);
}

/**
 * Failed sign-ins of the OAuth pages, in the database (table oauth_sign_in_failures; every replica
 * sees the same counts, with or without Redis). Past a limit the page refuses to check the
 * password until the oldest counted failure leaves the sliding window; a success clears the
 * account's failures (not the address's: one good account must not reset an address that guesses).
 * On the platform role, before any tenant transaction.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly repository: OAuthRepository) {}

  /** Seconds until a sign-in may be tried again, or 0 when it may now. */
  async retryAfter(tenantId: string, email: string, address: string): Promise<number> {
    // The limit-th most recent failure of each key: while it is in the window, the key is at its limit.
    const wait = await this.repository.signInFailuresWait(
      { tenantId, account: accountKey(email), address: addressKey(address) },
      SIGN_IN_LIMITS,
    );
    return wait > 0 ? Math.ceil(wait) : 0;
  }

  async recordFailure(tenantId: string, email: string, address: string): Promise<void> {
    await this.repository.insertSignInFailure(tenantId, accountKey(email), addressKey(address));
    // Failures older than a day count for nothing: removed a few at a time.
    await this.repository.deleteOldSignInFailures();
  }

  async clearAccount(tenantId: string, email: string): Promise<void> {
    await this.repository.deleteSignInFailuresOfAccount(tenantId, accountKey(email));
  }
}
