import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, Observable } from 'rxjs';
import { TenantContext } from '../../common/context/tenant-context';
import { Database } from '../../database/database.service';
import type { AuthRequest } from '../auth/principal';
import { AUDIT_RESOURCE } from './audit-resource.decorator';
import { AuditRecorder } from './audit-recorder';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Records every change made with a token under the token's name. The row is written in the
 * request's own transaction: it commits exactly when the change does, with no extra transaction.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly audit: AuditRecorder,
    private readonly reflector: Reflector,
    private readonly db: Database,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthRequest>();
    if (!req.principal || !WRITES.has(req.method)) return next.handle();
    const resource =
      this.reflector.get<string>(AUDIT_RESOURCE, context.getClass()) ??
      snake(context.getClass().name.replace(/Controller$/, ''));
    const action = `${resource}.${snake(context.getHandler().name)}`;
    return from(
      (async () => {
        const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const status =
          this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? (req.method === 'POST' ? 201 : 200);
        const resourceId = (body as { id?: unknown } | undefined)?.id ?? req.params.id;
        const record = () =>
          this.audit.record({
            action,
            resourceType: resource,
            resourceId: typeof resourceId === 'string' ? resourceId : null,
            status,
            ip: req.ip ?? null,
          });
        // A handler that ran @OutsideTransaction: the entry gets a transaction of its own.
        await (TenantContext.peek() ? record() : this.db.transaction(record));
        return body;
      })(),
    );
  }
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}
