import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { TenantContext } from '../../common/context/tenant-context';
import { SECRET_BOX } from '../../common/crypto/crypto.module';
import { SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';

export interface IdempotentRequest {
  tokenId: string;
  key: string;
  method: string;
  path: string;
  body: unknown;
}

interface StoredRow {
  method: string;
  path: string;
  fingerprint: Buffer;
  status: number;
  body_sealed: Buffer | null;
  location: string | null;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  location: string | null;
}

export const IDEMPOTENCY_RETENTION_HOURS = 24;

/** Idempotency records in PostgreSQL, scoped to (church, token, key), kept 24 hours. */
@Injectable()
export class IdempotencyStore {
  constructor(@Inject(SECRET_BOX) private readonly box: SecretBox) {}

  /**
   * Takes the key for this transaction. Another transaction holding it means the first request is
   * still running (409). A stored record is returned for replay, or refused if the request differs.
   */
  async begin(request: IdempotentRequest): Promise<StoredResponse | null> {
    const { manager, tenantId } = TenantContext.current();
    const [{ locked }]: { locked: boolean }[] = await manager.query(
      `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked`,
      [`idem:${tenantId}:${request.tokenId}:${request.key}`],
    );
    if (!locked) throw new AppError('idempotency_in_progress', {}, [], { 'Retry-After': '1' });
    const rows: StoredRow[] = await manager.query(
      `SELECT method, path, fingerprint, status, body_sealed, location FROM idempotency_keys
        WHERE tenant_id = $1 AND token_id = $2 AND key = $3 AND created_at > now() - make_interval(hours => $4)`,
      [tenantId, request.tokenId, request.key, IDEMPOTENCY_RETENTION_HOURS],
    );
    const prior = rows[0];
    if (!prior) return null;
    if (
      prior.method !== request.method ||
      prior.path !== request.path ||
      !prior.fingerprint.equals(fingerprint(request.body))
    ) {
      throw new AppError('idempotency_key_reused');
    }
    return {
      status: prior.status,
      body: prior.body_sealed ? JSON.parse(this.box.open(prior.body_sealed)) : undefined,
      location: prior.location,
    };
  }

  async complete(request: IdempotentRequest, status: number, body: unknown, location: string | null): Promise<void> {
    const { manager, tenantId } = TenantContext.current();
    await manager.query(
      `INSERT INTO idempotency_keys (tenant_id, token_id, key, method, path, fingerprint, status, body_sealed, location)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (tenant_id, token_id, key) DO UPDATE
         SET method = excluded.method, path = excluded.path, fingerprint = excluded.fingerprint, status = excluded.status,
             body_sealed = excluded.body_sealed, location = excluded.location, created_at = now()`,
      [
        tenantId,
        request.tokenId,
        request.key,
        request.method,
        request.path,
        fingerprint(request.body),
        status,
        body === undefined ? null : this.box.seal(JSON.stringify(body)),
        location,
      ],
    );
  }
}

/** The same JSON with its keys in another order is the same request. */
function fingerprint(body: unknown): Buffer {
  return createHash('sha256')
    .update(canonicalJson(body ?? null))
    .digest();
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
