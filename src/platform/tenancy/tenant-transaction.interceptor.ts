import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, lastValueFrom, Observable } from 'rxjs';
import { Database } from '../../database/database.service';
import type { AuthRequest } from '../auth/principal';

/**
 * Runs an authenticated handler inside one tenant transaction (RLS role + app.tenant_id). The
 * handler's writes, and the events it records, commit or roll back together.
 */
@Injectable()
export class TenantTransactionInterceptor implements NestInterceptor {
  constructor(private readonly db: Database) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthRequest>();
    const principal = req.principal;
    if (!principal) return next.handle();
    return from(
      this.db.runInTenant(
        {
          tenantId: principal.tenantId,
          actor: {
            kind: 'token',
            tokenId: principal.tokenId,
            tokenName: principal.tokenName,
            userId: principal.actingUserId,
          },
          lang: req.lang,
          requestId: req.id,
        },
        () => lastValueFrom(next.handle(), { defaultValue: undefined }),
      ),
    );
  }
}
