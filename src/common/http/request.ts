import type { Request } from 'express';
import type { Language } from '../i18n/language';
import type { Principal } from '../../platform/auth/principal';

/** What the pipeline learns about a request, kept on the request object (not in request-scoped providers). */
export interface ApiRequest extends Request {
  id: string;
  lang: Language;
  principal?: Principal;
}
