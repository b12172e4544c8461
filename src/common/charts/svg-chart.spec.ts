import { XMLParser } from 'fast-xml-parser';
import { renderSvgChart, SERIES_COLORS } from './svg-chart';

/** Every element of a parsed SVG tree, depth first. */
function elements(node: unknown, name: string, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, name, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === name) (Array.isArray(value) ? value : [value]).forEach((v) => out.push(v as Record<string, unknown>));
      elements(value, name, out);
    }
  }
  return out;
}

const parse = (svg: string): unknown => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg) as unknown;

describe('renderSvgChart', () => {
  const spec = {
    kind: 'bar' as const,
    title: 'Ofrendas por mes',
    categories: ['2026-09', '2026-10', '2026-11'],
    series: [
      { name: 'USD', values: [100, 250.5, 80] },
      { name: 'MXN', values: [5000, null, 1200] },
    ],
    xLabel: 'Mes',
    yLabel: 'Neto',
  };

  it('is an SVG document that parses as XML, with the title, axis names, categories and legend as text', () => {
    const svg = renderSvgChart(spec);
    const doc = parse(svg);
    expect(elements(doc, 'svg')[0].xmlns).toBe('http://www.w3.org/2000/svg');
    const texts = elements(doc, 'text').map((t) => (typeof t['#text'] === 'string' || typeof t['#text'] === 'number' ? String(t['#text']) : ''));
    for (const label of ['Ofrendas por mes', 'Mes', 'Neto', '2026-09', '2026-10', '2026-11', 'USD', 'MXN']) expect(texts).toContain(label);
  });

  it('draws one bar per value of each series in the series colour (plus its legend mark)', () => {
    const svg = renderSvgChart(spec);
    const doc = parse(svg);
    const filled = (color: string) => elements(doc, 'path').filter((p) => p.fill === color).length;
    expect(filled(SERIES_COLORS[0])).toBe(3 + 1);
    expect(filled(SERIES_COLORS[1])).toBe(2 + 1);
  });
});
