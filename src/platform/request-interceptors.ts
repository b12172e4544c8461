import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { AuditInterceptor } from './audit/audit.interceptor';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { TenantTransactionInterceptor } from './tenancy/tenant-transaction.interceptor';

/**
 * The API's global interceptors as one, nested in their order: the tenant transaction wraps
 * idempotency, which wraps the audit entry. Registered once instead of three times, a request
 * skips Nest's wrapping of each level (an Observable, an async scope and a merge per interceptor).
 */
@Injectable()
export class RequestInterceptors implements NestInterceptor {
  constructor(
    private readonly tenant: TenantTransactionInterceptor,
    private readonly idempotency: IdempotencyInterceptor,
    private readonly audit: AuditInterceptor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return this.tenant.intercept(context, {
      handle: () => this.idempotency.intercept(context, { handle: () => this.audit.intercept(context, next) }),
    });
  }
}
