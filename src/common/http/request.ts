import type { Request } from 'express';
import type { Language } from '../i18n/language';

/** What the common layer needs of the caller; the platform's Principal is one (and says much more). */
export interface RequestPrincipal {
  tenantId: string;
}

/** What the pipeline learns about a request, kept on the request object (not in request-scoped providers). */
export interface ApiRequest<P extends RequestPrincipal = RequestPrincipal> extends Request {
  id: string;
  lang: Language;
  principal?: P;
  /** The body's exact bytes, kept only on routes that verify a signature over them (see jsonBodyKeepingRaw). */
  rawBody?: Buffer;
}
