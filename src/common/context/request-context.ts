import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Response } from 'express';
import type { ApiRequest } from '../http/request';

/**
 * The request being served, for what is written on its behalf outside its tenant transaction
 * (log lines: request id, church, route). Holds the request itself: nothing is copied per request.
 */
const storage = new AsyncLocalStorage<ApiRequest>();

export const RequestContext = {
  current(): ApiRequest | undefined {
    return storage.getStore();
  },
};

/**
 * Middleware entering the request's context. Mounted after the body parsers: a body read through
 * stream events would lose an AsyncLocalStorage context entered before it.
 */
export function enterRequestContext(req: ApiRequest, _res: Response, next: NextFunction): void {
  storage.run(req, next);
}
