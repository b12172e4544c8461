import { readSvg } from '../../../test/support/svg';
import { renderSvgChart, SERIES_COLORS } from './svg-chart';

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
    const { root, texts } = readSvg(svg);
    expect(root.xmlns).toBe('http://www.w3.org/2000/svg');
    for (const label of ['Ofrendas por mes', 'Mes', 'Neto', '2026-09', '2026-10', '2026-11', 'USD', 'MXN']) expect(texts).toContain(label);
  });

  it('draws one bar per value of each series in the series colour (plus its legend mark)', () => {
    const svg = renderSvgChart(spec);
    const { filled } = readSvg(svg);
    expect(filled(SERIES_COLORS[0])).toBe(3 + 1);
    expect(filled(SERIES_COLORS[1])).toBe(2 + 1);
  });
});
