import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AppError } from '../../common/errors/app-error';
import type { AuthRequest } from '../auth/principal';
import { IdempotencyStore, type IdempotentRequest } from './idempotency.store';
import { IDEMPOTENT_METADATA, type IdempotentOptions } from './idempotent.decorator';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Idempotency-Key on creating POSTs. Runs inside the request's tenant transaction, so the stored
 * response commits together with the work it describes; failures roll back and are not stored.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthRequest>();
    const raw = req.headers['idempotency-key'];
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_METADATA, context.getHandler());
    if (raw === undefined || !req.principal || !options) return next.handle();
    if (typeof raw !== 'string' || !UUID_V4.test(raw)) throw new AppError('invalid_idempotency_key');
    const res = context.switchToHttp().getResponse<Response>();
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    return from(
      this.run(req, res, raw.toLowerCase(), status, options, () =>
        lastValueFrom(next.handle(), { defaultValue: undefined }),
      ),
    );
  }

  private async run(
    req: AuthRequest,
    res: Response,
    key: string,
    status: number,
    options: IdempotentOptions,
    handle: () => Promise<unknown>,
  ): Promise<unknown> {
    const request: IdempotentRequest = {
      tokenId: req.principal!.tokenId,
      key,
      method: req.method,
      path: req.path,
      body: req.body,
    };
    const prior = await this.store.begin(request);
    if (prior) {
      res.setHeader('Idempotent-Replayed', 'true');
      res.setHeader('Cache-Control', 'no-store');
      if (prior.location) res.setHeader('Location', prior.location);
      return prior.body;
    }
    const body = await handle();
    const location = res.getHeader('Location');
    const stored = options.secret ? withoutSecret(body, options.secret) : body;
    await this.store.complete(request, status, stored, typeof location === 'string' ? location : null);
    return body;
  }
}

/** The response as it is kept for replays: the secret shown once is null (it is never stored). */
function withoutSecret(body: unknown, field: string): unknown {
  if (!body || typeof body !== 'object' || !(field in body)) return body;
  return { ...body, [field]: null };
}
