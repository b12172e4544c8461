import { interpolate, Language } from '../../common/i18n/language';

export interface TokenExpiryNotice {
  tokenName: string;
  tokenType: 'pat' | 'service';
  /** `chp_…abcd`: prefix and last 4 characters, as the tokens list shows it. */
  display: string;
  church: string;
  expiresAt: Date;
}

interface Texts {
  kind: Record<TokenExpiryNotice['tokenType'], string>;
  subject: string;
  body: string;
  pushTitle: string;
  pushBody: string;
}

const TEXTS: Record<'es' | 'en', Texts> = {
  es: {
    kind: { pat: 'token de acceso personal', service: 'token de servicio' },
    subject: 'Tu token de API «{name}» vence el {date}',
    body: [
      'Hola:',
      '',
      'El {kind} «{name}» ({display}) de {church} vence el {date} ({iso}).',
      '',
      'Después de esa fecha, las llamadas con este token recibirán 401 token_expired. Crea un token nuevo',
      '(POST /v1/auth/tokens) y reemplaza este en tus integraciones antes de que venza.',
    ].join('\n'),
    pushTitle: 'Tu token de API vence pronto',
    pushBody: '«{name}» ({church}) vence el {date}.',
  },
  en: {
    kind: { pat: 'personal access token', service: 'service token' },
    subject: 'Your API token "{name}" expires on {date}',
    body: [
      'Hello,',
      '',
      'The {kind} "{name}" ({display}) of {church} expires on {date} ({iso}).',
      '',
      'After that, calls with this token get 401 token_expired. Create a new token',
      '(POST /v1/auth/tokens) and replace this one in your integrations before it expires.',
    ].join('\n'),
    pushTitle: 'Your API token expires soon',
    pushBody: '"{name}" ({church}) expires on {date}.',
  },
};

function params(notice: TokenExpiryNotice, lang: 'es' | 'en') {
  return {
    name: notice.tokenName,
    kind: TEXTS[lang].kind[notice.tokenType],
    display: notice.display,
    church: notice.church,
    date: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(notice.expiresAt),
    iso: `${notice.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  };
}

/** Languages without their own text (pt) get the default, Spanish. */
const pick = (lang: Language): 'es' | 'en' => (lang === 'en' ? 'en' : 'es');

export function tokenExpiryMail(notice: TokenExpiryNotice, lang: Language): { subject: string; text: string } {
  const l = pick(lang);
  const p = params(notice, l);
  return { subject: interpolate(TEXTS[l].subject, p), text: interpolate(TEXTS[l].body, p) };
}

export function tokenExpiryPush(notice: TokenExpiryNotice, lang: Language): { title: string; body: string } {
  const l = pick(lang);
  return { title: TEXTS[l].pushTitle, body: interpolate(TEXTS[l].pushBody, params(notice, l)) };
}
