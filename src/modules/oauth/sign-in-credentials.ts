import { Injectable } from '@nestjs/common';
import { hash, verify } from 'argon2';
import type { Role } from '../../platform/auth/scopes';
import { OAuthRepository } from './oauth.repository';

/** A staff member who signed in on the OAuth pages. */
export interface SignedInStaff {
  id: string;
  email: string;
  role: Role;
}

/** Longer input is refused without hashing it (argon2 of a megabyte would be a cheap way to load the server). */
const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;

/**
 * Checks a staff member's e-mail and password (the argon2 hash `user:create` stored) within one
 * church. Like the bearer lookup it runs on the platform role, before any tenant transaction.
 * An unknown e-mail, or a user without a password, costs the same argon2 verification as a wrong
 * password, so the answer time does not tell which e-mails exist.
 */
@Injectable()
export class SignInCredentials {
  private decoy?: Promise<string>;

  constructor(private readonly repository: OAuthRepository) {}

  async verify(tenantId: string, email: string, password: string): Promise<SignedInStaff | null> {
    if (email.length > MAX_EMAIL || password.length > MAX_PASSWORD || password.length === 0) return null;
    const user = await this.repository.findUserByEmail(tenantId, email.trim());
    const stored = user?.password_hash ?? (await this.decoyHash());
    const ok = await verify(stored, password).catch(() => false);
    return ok && user?.password_hash ? { id: user.id, email: user.email, role: user.role } : null;
  }

  /** A hash of a random password, made once, verified against when there is no real one. */
  private decoyHash(): Promise<string> {
    this.decoy ??= hash(`decoy-${Math.random()}-${Date.now()}`);
    return this.decoy;
  }
}
