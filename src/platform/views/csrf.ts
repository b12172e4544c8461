import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * Random values a page flow hands out (the pending request's handle, the form's CSRF token, the
 * browser cookie): 256 bits, base64url. Only their SHA-256 is stored.
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function isSecretShaped(value: unknown): value is string {
  return typeof value === 'string' && SECRET.test(value);
}

/** Whether `value` is the secret whose SHA-256 is `hash` (constant time). */
export function matchesHash(value: unknown, hash: Buffer): boolean {
  if (!isSecretShaped(value)) return false;
  const candidate = hashSecret(value);
  return candidate.length === hash.length && timingSafeEqual(candidate, hash);
}

/** A cookie of the request, if sent once and well-formed (no cookie-parser: one cookie is read). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 && isSecretShaped(values[0]) ? values[0] : undefined;
}

/**
 * The browser a page flow is bound to: a random value in a `__Host-` cookie (HttpOnly, Secure,
 * SameSite=Lax, Path=/, no Domain). A browser that already has one keeps it (two tabs share it);
 * the flow stores its hash, and a form posted without the cookie (another browser, a cross-site
 * post) is refused. Browsers keep Secure cookies from http://localhost too (a secure context).
 */
export function browserBinding(req: Request, res: Response, name: `__Host-${string}`): string {
  const existing = readCookie(req, name);
  if (existing) return existing;
  const value = newSecret();
  res.append('Set-Cookie', `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Lax`);
  return value;
}
