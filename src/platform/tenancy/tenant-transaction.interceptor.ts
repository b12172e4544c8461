import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, Observable } from 'rxjs';
import { Database, TenantRun } from '../../database/database.service';
import type { AuthRequest } from '../auth/principal';
import { OUTSIDE_TRANSACTION } from './outside-transaction.decorator';
import { READS_ONLY } from './reads-only.decorator';

/**
 * Runs an authenticated handler inside one tenant transaction (RLS role + app.tenant_id). The
 * handler's writes, and the events it records, commit or roll back together. A handler marked
 * @OutsideTransaction runs without one and opens its own short transactions; one marked @ReadsOnly
 * runs each statement alone, read-only (no BEGIN, no COMMIT).
 */
@Injectable()
export class TenantTransactionInterceptor implements NestInterceptor {
  constructor(
    private readonly db: Database,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthRequest>();
    const principal = req.principal;
    if (!principal) return next.handle();
    const run: TenantRun = {
      tenantId: principal.tenantId,
      actor: {
        kind: 'token',
        tokenId: principal.tokenId,
        tokenName: principal.tokenName,
        tokenType: principal.tokenType,
        userId: principal.actingUserId,
      },
      lang: req.lang,
      requestId: req.id,
      readOnly: this.reflector.get<boolean>(READS_ONLY, context.getHandler()) === true,
    };
    const handle = () => lastValueFrom(next.handle(), { defaultValue: undefined });
    const outside = this.reflector.get<boolean>(OUTSIDE_TRANSACTION, context.getHandler());
    return from(outside ? this.db.runOutsideTransaction(run, handle) : this.db.runInTenant(run, handle));
  }
}
