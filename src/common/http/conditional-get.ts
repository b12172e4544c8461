import { createHash, hash } from 'node:crypto';
import { todayUtc } from '../lists/list-query';
import type { NextFunction, Request, Response } from 'express';
import type { ListQuery } from '../lists/list-query';
import type { ApiRequest } from './request';

/**
 * ETag and If-None-Match for GET (CONTRACT §5b). The ETag hashes the JSON the handler already
 * produced, with the church and language, so one church's ETag never matches another's. Express's
 * own ETag is off; the body is serialized once, here.
 */
export function conditionalGet(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode < 200 || res.statusCode >= 300) return json(body);
    const r = req as ApiRequest;
    const text = JSON.stringify(body);
    // A handler that knows its version (member lists) sets the ETag itself; otherwise hash the body.
    const tag = (res.getHeader('ETag') as string | undefined) ?? etagOf(text, r.principal?.tenantId ?? '-', r.lang);
    res.setHeader('ETag', tag);
    setCachingHeaders(res);
    if (matches(req.headers['if-none-match'], tag)) {
      res.status(304);
      res.removeHeader('Content-Type');
      res.end();
      return res;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return res;
  };
  next();
}

/** An ETag from what identifies a response without building it (a list's version and the request). */
export function versionEtag(...parts: string[]): string {
  return `"v${hash('sha1', parts.join('\0'), 'base64url')}"`;
}

/**
 * A list page's ETag from the list's version (ListTotals), the church, the UTC day (filters such as
 * age move with the date), the language and every part of the query; `scope` names the list.
 */
export function listPageEtag(
  tenantId: string,
  scope: string[],
  version: string,
  lang: string,
  query: ListQuery,
): string {
  return versionEtag(
    tenantId,
    ...scope,
    version,
    todayUtc(),
    lang,
    String(query.limit),
    query.sortKey,
    JSON.stringify(query.cursor),
    JSON.stringify(query.filters),
    String(query.withTotal),
  );
}

export function etagOf(body: string, tenant: string, lang: string): string {
  return `"${createHash('sha1').update(tenant).update('\0').update(lang).update('\0').update(body).digest('base64url')}"`;
}

export function setCachingHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'private, no-cache');
  res.vary('Authorization').vary('X-Tenant').vary('Accept-Language');
}

export function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}
