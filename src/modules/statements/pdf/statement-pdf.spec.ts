import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressLines, formatAmount, formatDate, todayIn, toWinAnsi } from './statement-format';
import { renderStatementPdf, StatementDocument } from './statement-pdf';

/** The PDF's text as a PDF reader extracts it (poppler's pdftotext), in reading order. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'stm-'));
  const file = join(dir, 'statement.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\u00a0/g, ' ');
}

const base: StatementDocument = {
  lang: 'en',
  number: 'stm_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
  year: 2025,
  issuedOn: '2026-01-15',
  church: {
    name: 'Iglesia Bautista Emanuel',
    address: { line1: 'Av. Juárez 100', city: 'Guadalajara', region: 'Jalisco', postal_code: '44100', country: 'MX' },
    taxId: 'IBE850101AB1',
    signerName: 'María José Ortiz',
    signerTitle: 'Treasurer',
  },
  recipient: {
    name: 'Lucía Ramírez',
    address: { line1: 'Calle Hidalgo 12', city: 'Zapopan', country: 'MX' },
    donors: [],
  },
  gifts: [
    {
      receivedOn: '2025-01-05',
      donor: 'Lucía Ramírez',
      fund: 'General Fund',
      currency: 'MXN',
      amount: 50000,
      refunded: 0,
      net: 50000,
    },
    {
      receivedOn: '2025-03-09',
      donor: 'Lucía Ramírez',
      fund: 'Missions',
      currency: 'MXN',
      amount: 120000,
      refunded: 20000,
      net: 100000,
    },
    {
      receivedOn: '2025-12-31',
      donor: 'Lucía Ramírez',
      fund: 'Building',
      currency: 'USD',
      amount: 10050,
      refunded: 0,
      net: 10050,
    },
  ],
  totals: [
    { currency: 'MXN', amount: 170000, refunded: 20000, net: 150000 },
    { currency: 'USD', amount: 10050, refunded: 0, net: 10050 },
  ],
};

describe('statement formatting', () => {
  it('prints amounts with the ISO code and the exponent of the money table', () => {
    expect(formatAmount(123456, 'USD', 'en').replace(/\u00a0/g, ' ')).toBe('USD 1,234.56');
    expect(formatAmount(15000, 'CLP', 'es')).toMatch(/^15\.000\sCLP$/);
    expect(formatAmount(1500, 'PYG', 'en').replace(/\u00a0/g, ' ')).toBe('PYG 1,500');
    expect(formatAmount(1234, 'KWD', 'en').replace(/\u00a0/g, ' ')).toBe('KWD 1.234');
    expect(formatAmount(10, 'BRL', 'pt')).toMatch(/0,10/);
  });

  it('prints calendar dates in the language without shifting the day', () => {
    expect(formatDate('2025-12-31', 'en')).toBe('12/31/2025');
    expect(formatDate('2025-12-31', 'es')).toBe('31/12/2025');
    expect(formatDate('2025-01-01', 'pt', 'long')).toBe('1 de janeiro de 2025');
  });

  it('keeps what the standard fonts draw and replaces the rest', () => {
    expect(toWinAnsi('Ñandú São Paulo – “€”')).toBe('Ñandú São Paulo – “€”');
    expect(toWinAnsi('a\u202fb\u2009c')).toBe('a b c');
    expect(toWinAnsi('Łódź Erdős 中')).toBe('?ódz Erdos ?');
  });

  it('knows today in a time zone, and falls back to UTC for one the runtime does not know', () => {
    const now = new Date('2026-01-01T03:00:00Z');
    expect(todayIn('America/Mexico_City', now)).toBe('2025-12-31');
    expect(todayIn('UTC', now)).toBe('2026-01-01');
    expect(todayIn('Mars/Olympus', now)).toBe('2026-01-01');
  });

  it('writes an address as lines', () => {
    expect(addressLines(base.church.address)).toEqual(['Av. Juárez 100', 'Guadalajara, Jalisco 44100', 'MX']);
    expect(addressLines(null)).toEqual([]);
  });
});

describe('renderStatementPdf', () => {
  it('renders the letterhead, the donor, each gift, totals per currency and the closing, read back by pdftotext', async () => {
    const pdf = await renderStatementPdf(base);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      'Iglesia Bautista Emanuel',
      'Av. Juárez 100',
      'Tax ID: IBE850101AB1',
      'Annual Contribution Statement',
      'Tax year 2025',
      'Lucía Ramírez',
      'Calle Hidalgo 12',
      'Date',
      'Fund',
      'Deductible',
      '01/05/2025',
      'General Fund',
      'MXN 500.00',
      '-MXN 200.00',
      'MXN 1,000.00',
      '12/31/2025',
      'USD 100.50',
      'Total MXN',
      'MXN 1,500.00',
      'Total USD',
      'No goods or services were provided in exchange for these contributions.',
      'María José Ortiz',
      'Page 1 of 1',
    ])
      expect(text).toContain(expected);
  });

  it('speaks the church language (es, pt)', async () => {
    const es = pdfText(await renderStatementPdf({ ...base, lang: 'es' }));
    expect(es).toContain('Constancia anual de donativos');
    expect(es).toContain('No se entregaron bienes ni servicios a cambio de estos donativos.');
    expect(es).toContain('05/01/2025');
    const pt = pdfText(await renderStatementPdf({ ...base, lang: 'pt' }));
    expect(pt).toContain('Comprovante anual de doações');
    expect(pt).toContain('Nenhum bem ou serviço foi fornecido em troca destas doações.');
  });

  it('a joint statement names every giver and has a donor column; a long year runs over pages with numbered footers', async () => {
    const gifts = Array.from({ length: 70 }, (_, i) => ({
      receivedOn: `2025-${String(1 + (i % 12)).padStart(2, '0')}-0${1 + (i % 7)}`,
      donor: i % 2 ? 'Ana Pérez' : 'José Pérez',
      fund: 'General Fund',
      currency: 'USD' as const,
      amount: 2500,
      refunded: 0,
      net: 2500,
    }));
    const pdf = await renderStatementPdf({
      ...base,
      recipient: { name: 'Pérez family', address: null, donors: ['José Pérez', 'Ana Pérez'] },
      gifts,
      totals: [{ currency: 'USD', amount: 175000, refunded: 0, net: 175000 }],
    });
    const text = pdfText(pdf);
    expect(text).toContain('Pérez family');
    expect(text).toContain('José Pérez, Ana Pérez');
    expect(text).toMatch(/Page 1 of [23]/);
    expect(text).toContain('USD 1,750.00');
    // The heading repeats on the next page.
    expect(text.split('Deductible').length - 1).toBeGreaterThanOrEqual(2);
  });
});
