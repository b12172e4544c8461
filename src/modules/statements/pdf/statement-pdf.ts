import PDFDocument from 'pdfkit';
import { interpolate, Language } from '../../../common/i18n/language';
import type { CurrencyCode } from '../../../common/money/currencies';
import type { Address } from '../../members/member.entity';
import { addressLines, formatAmount, formatDate, toWinAnsi } from './statement-format';
import { STATEMENT_TEXTS, StatementTexts } from './statement-texts';

export interface StatementGiftLine {
  /** The day the gift was received, in the church's time zone (YYYY-MM-DD). */
  receivedOn: string;
  /** The giver's name: printed on joint (household) statements only. */
  donor: string;
  fund: string;
  currency: CurrencyCode;
  amount: number;
  refunded: number;
  /** What counts: amount less refunds (NET_GIVEN_SQL). */
  net: number;
}

export interface StatementTotalLine {
  currency: CurrencyCode;
  amount: number;
  refunded: number;
  net: number;
}

/** Everything one statement prints: the renderer reads nothing else. */
export interface StatementDocument {
  lang: Language;
  /** The statement's public id (stm_…). */
  number: string;
  year: number;
  /** The day it is issued (YYYY-MM-DD). */
  issuedOn: string;
  church: {
    name: string;
    address: Address | null;
    taxId: string | null;
    signerName: string | null;
    signerTitle: string | null;
  };
  /** The donor (`donors` empty), or the household giving jointly (`donors`: its givers; a donor column when several). */
  recipient: { name: string; address: Address | null; donors: string[] };
  gifts: StatementGiftLine[];
  totals: StatementTotalLine[];
}

const PAGE = { width: 612, height: 792, margin: 54 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
/** Lowest y a body line may reach: the footer lives below it. */
const BODY_BOTTOM = PAGE.height - PAGE.margin - 14;
const ROW_HEIGHT = 17;
const INK = '#1f2933';
const MUTED = '#616e7c';
const ACCENT = '#1d4e89';
const RULE = '#cbd2d9';
const ZEBRA = '#f2f5f8';

interface TableColumn {
  key: 'date' | 'donor' | 'fund' | 'amount' | 'refunded' | 'net';
  label: string;
  width: number;
  align: 'left' | 'right';
}

/**
 * Renders a year-end contribution statement as a PDF (pdfkit, US Letter, standard Helvetica): the
 * church's letterhead, the donor, a table of the year's gifts to tax-deductible funds (date, fund,
 * amount, refunded, deductible; the giver too on a household's joint statement) whose heading
 * repeats on every page, a total per currency, the no-goods-or-services sentence, a signature line
 * and a numbered footer. Deterministic for the same input (no creation date in the metadata).
 */
export function renderStatementPdf(doc: StatementDocument): Promise<Buffer> {
  const t = STATEMENT_TEXTS[doc.lang];
  const pdf = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    bufferPages: true,
    info: {
      Title: toWinAnsi(`${t.title} ${doc.year} - ${doc.recipient.name}`),
      Author: toWinAnsi(doc.church.name),
      Subject: toWinAnsi(`${t.title} ${doc.year}`),
      CreationDate: new Date(`${doc.issuedOn}T12:00:00Z`),
    },
    lang: doc.lang,
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  letterhead(pdf, doc, t);
  recipient(pdf, doc, t);
  intro(pdf, doc, t);
  table(pdf, doc, t);
  closing(pdf, doc, t);
  footers(pdf, doc, t);
  pdf.end();
  return done;
}

type Pdf = PDFKit.PDFDocument;

function write(pdf: Pdf, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}): void {
  pdf.text(toWinAnsi(text), x, y, options);
}

function letterhead(pdf: Pdf, doc: StatementDocument, t: StatementTexts): void {
  const left = PAGE.margin;
  const top = PAGE.margin;
  const leftWidth = CONTENT_WIDTH * 0.55;
  pdf.fillColor(ACCENT).font('Helvetica-Bold').fontSize(16);
  write(pdf, doc.church.name, left, top, { width: leftWidth });
  pdf.fillColor(MUTED).font('Helvetica').fontSize(9);
  const lines = addressLines(doc.church.address);
  if (doc.church.taxId) lines.push(`${t.taxId}: ${doc.church.taxId}`);
  for (const line of lines) write(pdf, line, left, pdf.y + 1, { width: leftWidth });
  const leftBottom = pdf.y;

  const rightX = left + leftWidth;
  const rightWidth = CONTENT_WIDTH - leftWidth;
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(13);
  write(pdf, t.title, rightX, top + 2, { width: rightWidth, align: 'right' });
  pdf.font('Helvetica').fontSize(10);
  write(pdf, interpolate(t.period, { year: doc.year }), rightX, pdf.y + 2, { width: rightWidth, align: 'right' });
  pdf.fillColor(MUTED).fontSize(8.5);
  write(pdf, `${t.issuedOn}: ${formatDate(doc.issuedOn, doc.lang, 'long')}`, rightX, pdf.y + 4, {
    width: rightWidth,
    align: 'right',
  });
  write(pdf, `${t.statementNo} ${doc.number}`, rightX, pdf.y + 1, { width: rightWidth, align: 'right' });

  const ruleY = Math.max(leftBottom, pdf.y) + 12;
  pdf
    .moveTo(left, ruleY)
    .lineTo(left + CONTENT_WIDTH, ruleY)
    .lineWidth(1.5)
    .strokeColor(ACCENT)
    .stroke();
  pdf.y = ruleY + 18;
}

function recipient(pdf: Pdf, doc: StatementDocument, t: StatementTexts): void {
  const x = PAGE.margin;
  pdf.fillColor(MUTED).font('Helvetica-Bold').fontSize(8);
  write(pdf, (doc.recipient.donors.length > 1 ? t.donors : t.donor).toUpperCase(), x, pdf.y, { characterSpacing: 0.6 });
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(11);
  write(pdf, doc.recipient.name, x, pdf.y + 3, { width: CONTENT_WIDTH * 0.6 });
  pdf.font('Helvetica').fontSize(10);
  if (doc.recipient.donors.length > 0)
    write(pdf, doc.recipient.donors.join(', '), x, pdf.y + 1, { width: CONTENT_WIDTH * 0.6 });
  for (const line of addressLines(doc.recipient.address))
    write(pdf, line, x, pdf.y + 1, { width: CONTENT_WIDTH * 0.6 });
  pdf.y += 16;
}

function intro(pdf: Pdf, doc: StatementDocument, t: StatementTexts): void {
  const text = interpolate(t.intro, {
    church: doc.church.name,
    from: formatDate(`${doc.year}-01-01`, doc.lang, 'long'),
    to: formatDate(`${doc.year}-12-31`, doc.lang, 'long'),
  });
  pdf.fillColor(INK).font('Helvetica').fontSize(10);
  write(pdf, text, PAGE.margin, pdf.y, { width: CONTENT_WIDTH, lineGap: 2 });
  pdf.y += 14;
}

function columnsOf(doc: StatementDocument, t: StatementTexts): TableColumn[] {
  const joint = doc.recipient.donors.length > 1;
  const fixed: TableColumn[] = [
    { key: 'date', label: t.date, width: 62, align: 'left' },
    ...(joint ? [{ key: 'donor', label: t.donor, width: 96, align: 'left' } as TableColumn] : []),
    { key: 'fund', label: t.fund, width: 0, align: 'left' },
    { key: 'amount', label: t.amount, width: 82, align: 'right' },
    { key: 'refunded', label: t.refunded, width: 76, align: 'right' },
    { key: 'net', label: t.deductible, width: 82, align: 'right' },
  ];
  const used = fixed.reduce((sum, c) => sum + c.width, 0);
  for (const c of fixed) if (c.key === 'fund') c.width = CONTENT_WIDTH - used;
  return fixed;
}

/** Cuts `text` with an ellipsis to fit `width` in the current font. */
function fit(pdf: Pdf, text: string, width: number): string {
  const safe = toWinAnsi(text);
  if (pdf.widthOfString(safe) <= width) return safe;
  let cut = safe;
  while (cut.length > 1 && pdf.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

function row(pdf: Pdf, columns: TableColumn[], cells: Record<TableColumn['key'], string>, y: number): void {
  let x = PAGE.margin;
  for (const column of columns) {
    const pad = 5;
    pdf.text(fit(pdf, cells[column.key], column.width - 2 * pad), x + pad, y + 4.5, {
      width: column.width - 2 * pad,
      align: column.align,
      lineBreak: false,
    });
    x += column.width;
  }
}

function headingRow(pdf: Pdf, columns: TableColumn[], y: number): number {
  pdf.rect(PAGE.margin, y, CONTENT_WIDTH, ROW_HEIGHT + 1).fill(ACCENT);
  pdf.fillColor('#ffffff').font('Helvetica-Bold').fontSize(8.5);
  row(
    pdf,
    columns,
    Object.fromEntries(columns.map((c) => [c.key, c.label])) as Record<TableColumn['key'], string>,
    y + 0.5,
  );
  return y + ROW_HEIGHT + 1;
}

/** Starts a new page when `height` does not fit below `y`; returns where to draw. */
function room(pdf: Pdf, y: number, height: number): number {
  if (y + height <= BODY_BOTTOM) return y;
  pdf.addPage();
  return PAGE.margin;
}

function table(pdf: Pdf, doc: StatementDocument, t: StatementTexts): void {
  const columns = columnsOf(doc, t);
  let y = headingRow(pdf, columns, room(pdf, pdf.y, 3 * ROW_HEIGHT));
  if (doc.gifts.length === 0) {
    pdf.fillColor(MUTED).font('Helvetica-Oblique').fontSize(9);
    write(pdf, t.noGifts, PAGE.margin + 5, y + 5, { width: CONTENT_WIDTH - 10 });
    y += ROW_HEIGHT + 4;
  }
  doc.gifts.forEach((gift, index) => {
    const next = room(pdf, y, ROW_HEIGHT);
    if (next !== y) y = headingRow(pdf, columns, next);
    if (index % 2 === 1) pdf.rect(PAGE.margin, y, CONTENT_WIDTH, ROW_HEIGHT).fill(ZEBRA);
    pdf.fillColor(INK).font('Helvetica').fontSize(9);
    row(
      pdf,
      columns,
      {
        date: formatDate(gift.receivedOn, doc.lang),
        donor: gift.donor,
        fund: gift.fund,
        amount: formatAmount(gift.amount, gift.currency, doc.lang),
        refunded: gift.refunded ? `-${formatAmount(gift.refunded, gift.currency, doc.lang)}` : '',
        net: formatAmount(gift.net, gift.currency, doc.lang),
      },
      y,
    );
    y += ROW_HEIGHT;
  });

  y = room(pdf, y, doc.totals.length * ROW_HEIGHT + 6);
  pdf
    .moveTo(PAGE.margin, y)
    .lineTo(PAGE.margin + CONTENT_WIDTH, y)
    .lineWidth(1)
    .strokeColor(INK)
    .stroke();
  y += 2;
  for (const total of doc.totals) {
    pdf.fillColor(INK).font('Helvetica-Bold').fontSize(9.5);
    const label = interpolate(t.totalFor, { currency: total.currency });
    row(
      pdf,
      columns,
      {
        date: columns[1].key === 'donor' ? label : '',
        donor: '',
        fund: columns[1].key === 'donor' ? '' : label,
        amount: formatAmount(total.amount, total.currency, doc.lang),
        refunded: total.refunded ? `-${formatAmount(total.refunded, total.currency, doc.lang)}` : '',
        net: formatAmount(total.net, total.currency, doc.lang),
      },
      y,
    );
    y += ROW_HEIGHT;
  }
  pdf
    .moveTo(PAGE.margin, y + 1)
    .lineTo(PAGE.margin + CONTENT_WIDTH, y + 1)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  pdf.y = y + 18;
}

function closing(pdf: Pdf, doc: StatementDocument, t: StatementTexts): void {
  const x = PAGE.margin;
  let y = room(pdf, pdf.y, 112);
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(10);
  write(pdf, t.noGoodsOrServices, x, y, { width: CONTENT_WIDTH });
  pdf.font('Helvetica').fontSize(10);
  write(pdf, t.thanks, x, pdf.y + 14, { width: CONTENT_WIDTH });
  y = pdf.y + 42;
  pdf
    .moveTo(x, y)
    .lineTo(x + 220, y)
    .lineWidth(0.75)
    .strokeColor(INK)
    .stroke();
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(9.5);
  write(pdf, doc.church.signerName ?? doc.church.name, x, y + 5, { width: 300 });
  pdf.fillColor(MUTED).font('Helvetica').fontSize(9);
  write(pdf, doc.church.signerTitle ?? t.defaultSignerTitle, x, pdf.y + 1, { width: 300 });
}

/** "Church · Statement 2025 · Page 1 of 2" under a hairline on every page (written below the body's margin). */
function footers(pdf: Pdf, doc: StatementDocument, t: StatementTexts): void {
  const range = pdf.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    pdf.switchToPage(range.start + i);
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0; // text below the margin would otherwise open a new page
    const y = PAGE.height - PAGE.margin + 4;
    pdf
      .moveTo(PAGE.margin, y - 6)
      .lineTo(PAGE.margin + CONTENT_WIDTH, y - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    pdf.fillColor(MUTED).font('Helvetica').fontSize(7.5);
    write(pdf, `${doc.church.name} · ${t.title} ${doc.year} · ${doc.number}`, PAGE.margin, y, {
      width: CONTENT_WIDTH * 0.75,
      lineBreak: false,
    });
    write(pdf, interpolate(t.page, { page: i + 1, pages: range.count }), PAGE.margin + CONTENT_WIDTH * 0.75, y, {
      width: CONTENT_WIDTH * 0.25,
      align: 'right',
      lineBreak: false,
    });
    pdf.page.margins.bottom = bottom;
  }
}
