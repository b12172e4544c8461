import type { Language } from '../../../common/i18n/language';

/** Every word a statement prints, per language of the church (statement settings). */
export interface StatementTexts {
  title: string;
  /** `{year}` */
  period: string;
  issuedOn: string;
  statementNo: string;
  taxId: string;
  donor: string;
  donors: string;
  /** `{church}`, `{from}`, `{to}` */
  intro: string;
  date: string;
  fund: string;
  amount: string;
  refunded: string;
  deductible: string;
  /** `{currency}` */
  totalFor: string;
  noGifts: string;
  /** The sentence that no goods or services were given in return for the gifts. */
  noGoodsOrServices: string;
  thanks: string;
  defaultSignerTitle: string;
  /** `{page}`, `{pages}` */
  page: string;
}

export const STATEMENT_TEXTS: Record<Language, StatementTexts> = {
  es: {
    title: 'Constancia anual de donativos',
    period: 'Ejercicio {year}',
    issuedOn: 'Fecha de emisión',
    statementNo: 'Constancia n.º',
    taxId: 'Identificación fiscal',
    donor: 'Donante',
    donors: 'Donantes',
    intro:
      'Gracias por su generosidad. Esta constancia detalla los donativos deducibles que {church} recibió de usted entre el {from} y el {to}; los reembolsos ya están descontados.',
    date: 'Fecha',
    fund: 'Fondo',
    amount: 'Importe',
    refunded: 'Reembolsado',
    deductible: 'Deducible',
    totalFor: 'Total {currency}',
    noGifts: 'No hay donativos deducibles en este periodo.',
    noGoodsOrServices: 'No se entregaron bienes ni servicios a cambio de estos donativos.',
    thanks: 'Con gratitud,',
    defaultSignerTitle: 'Tesorería',
    page: 'Página {page} de {pages}',
  },
  en: {
    title: 'Annual Contribution Statement',
    period: 'Tax year {year}',
    issuedOn: 'Issued on',
    statementNo: 'Statement no.',
    taxId: 'Tax ID',
    donor: 'Donor',
    donors: 'Donors',
    intro:
      'Thank you for your generosity. This statement lists the tax-deductible contributions {church} received from you between {from} and {to}; refunds have been deducted.',
    date: 'Date',
    fund: 'Fund',
    amount: 'Amount',
    refunded: 'Refunded',
    deductible: 'Deductible',
    totalFor: 'Total {currency}',
    noGifts: 'No tax-deductible contributions in this period.',
    noGoodsOrServices: 'No goods or services were provided in exchange for these contributions.',
    thanks: 'With gratitude,',
    defaultSignerTitle: 'Treasurer',
    page: 'Page {page} of {pages}',
  },
  pt: {
    title: 'Comprovante anual de doações',
    period: 'Ano-calendário {year}',
    issuedOn: 'Emitido em',
    statementNo: 'Comprovante n.º',
    taxId: 'Identificação fiscal',
    donor: 'Doador',
    donors: 'Doadores',
    intro:
      'Obrigado pela sua generosidade. Este comprovante relaciona as doações dedutíveis que {church} recebeu de você entre {from} e {to}; os reembolsos já foram descontados.',
    date: 'Data',
    fund: 'Fundo',
    amount: 'Valor',
    refunded: 'Reembolsado',
    deductible: 'Dedutível',
    totalFor: 'Total {currency}',
    noGifts: 'Não há doações dedutíveis neste período.',
    noGoodsOrServices: 'Nenhum bem ou serviço foi fornecido em troca destas doações.',
    thanks: 'Com gratidão,',
    defaultSignerTitle: 'Tesouraria',
    page: 'Página {page} de {pages}',
  },
};
