import { interpolate, Language } from '../../common/i18n/language';

export interface CancellationNotice {
  firstName: string;
  eventName: string;
  startsAt: Date;
  timezone: string;
  reason: string | null;
}

const LOCALES: Record<Language, string> = { es: 'es-MX', en: 'en-US', pt: 'pt-BR' };

const TEXTS: Record<Language, { subject: string; body: string; reason: string }> = {
  es: {
    subject: 'Cancelado: {event}',
    body: 'Hola, {name}:\n\nEl evento «{event}» del {when} ({timezone}) fue cancelado.{reason}\n\nTu inscripción queda sin efecto; no necesitas hacer nada más.',
    reason: '\n\nMotivo: {reason}',
  },
  en: {
    subject: 'Canceled: {event}',
    body: 'Hello {name},\n\nThe event "{event}" on {when} ({timezone}) has been canceled.{reason}\n\nYour registration no longer applies; there is nothing else you need to do.',
    reason: '\n\nReason: {reason}',
  },
  pt: {
    subject: 'Cancelado: {event}',
    body: 'Olá, {name}:\n\nO evento «{event}» de {when} ({timezone}) foi cancelado.{reason}\n\nSua inscrição fica sem efeito; você não precisa fazer mais nada.',
    reason: '\n\nMotivo: {reason}',
  },
};

/** The cancellation mail to one registrant, in `lang`, the start shown in the event's time zone. */
export function cancellationMail(notice: CancellationNotice, lang: Language): { subject: string; text: string } {
  const t = TEXTS[lang];
  const when = new Intl.DateTimeFormat(LOCALES[lang], {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: notice.timezone,
  }).format(notice.startsAt);
  return {
    subject: interpolate(t.subject, { event: notice.eventName }),
    text: interpolate(t.body, {
      name: notice.firstName,
      event: notice.eventName,
      when,
      timezone: notice.timezone,
      reason: notice.reason ? interpolate(t.reason, { reason: notice.reason }) : '',
    }),
  };
}
