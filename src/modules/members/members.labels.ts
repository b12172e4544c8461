import type { Language } from '../../common/i18n/language';
import type { Gender, MemberStatus } from './member.entity';

export const GENDER_LABELS: Record<Language, Record<Gender, string>> = {
  es: { male: 'Masculino', female: 'Femenino', unspecified: 'Sin especificar' },
  en: { male: 'Male', female: 'Female', unspecified: 'Unspecified' },
  pt: { male: 'Masculino', female: 'Feminino', unspecified: 'Não especificado' },
};

export const STATUS_LABELS: Record<Language, Record<MemberStatus, string>> = {
  es: { visitor: 'Visitante', regular: 'Asistente regular', member: 'Miembro', leader: 'Líder' },
  en: { visitor: 'Visitor', regular: 'Regular attendee', member: 'Member', leader: 'Leader' },
  pt: { visitor: 'Visitante', regular: 'Frequentador', member: 'Membro', leader: 'Líder' },
};
