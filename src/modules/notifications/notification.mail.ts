import { interpolate, Language } from '../../common/i18n/language';

const TEXTS: Record<Language, { greeting: string; footer: string }> = {
  es: { greeting: 'Hola, {name}:', footer: '— {church}\n\nRecibes este mensaje porque eres parte de {church}.' },
  en: {
    greeting: 'Hello {name},',
    footer: '— {church}\n\nYou are receiving this message because you belong to {church}.',
  },
  pt: { greeting: 'Olá, {name}:', footer: '— {church}\n\nVocê recebe esta mensagem porque faz parte de {church}.' },
};

/** The longest push body sent (FCM caps a message at 4 KB). */
export const PUSH_BODY_MAX = 1000;

/** The e-mail to one recipient: the title as subject, the body between a greeting and the church's signature, in `lang`. */
export function notificationMail(
  notice: { title: string; body: string; firstName: string; church: string },
  lang: Language,
): { subject: string; text: string } {
  const t = TEXTS[lang];
  const greeting = interpolate(t.greeting, { name: notice.firstName });
  const footer = interpolate(t.footer, { church: notice.church });
  return { subject: notice.title, text: `${greeting}\n\n${notice.body}\n\n${footer}` };
}

export function pushBody(body: string): string {
  return body.length > PUSH_BODY_MAX ? `${body.slice(0, PUSH_BODY_MAX - 1)}…` : body;
}
