import type { Request } from 'express';
import type { Language } from '../i18n/language';

/** What the common layer needs of the caller; the platform's Principal is one (and says much more). */
export interface RequestPrincipal {
  tenantId: string;
  /** The church's slug, when the principal knows it (logs name the church by it). */
  tenantSlug?: string;
}

/** What the pipeline learns about a request, kept on the request object (not in request-scoped providers). */
export interface ApiRequest<P extends RequestPrincipal = RequestPrincipal> extends Request {
  id: string;
  lang: Language;
  principal?: P;
  /** The body's exact bytes, kept only on routes that verify a signature over them (see jsonBodyKeepingRaw). */
  rawBody?: Buffer;
  /** The body of a form route (OAuth token, revocation and page forms), read before the JSON pipeline, which then skips it. */
  form?: FormBody;
}

/** An `application/x-www-form-urlencoded` body: its fields (a repeated name gives an array), or why it could not be read. */
export interface FormBody {
  fields: Record<string, string | string[]>;
  /** media_type: another content type; too_large: over the limit; malformed: unreadable, or text the database cannot hold. */
  error?: 'media_type' | 'too_large' | 'malformed';
}
