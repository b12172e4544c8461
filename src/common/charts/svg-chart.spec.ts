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
    for (const label of ['Ofrendas por mes', 'Mes', 'Neto', '2026-09', '2026-10', '2026-11', 'USD', 'MXN'])
      expect(texts).toContain(label);
  });

  it('draws one bar per value of each series in the series colour (plus its legend mark)', () => {
    const svg = renderSvgChart(spec);
    const { filled } = readSvg(svg);
    expect(filled(SERIES_COLORS[0])).toBe(3 + 1);
    expect(filled(SERIES_COLORS[1])).toBe(2 + 1);
  });

  it('series read against different axes (currencies) get a panel each: both axis names, each series scaled to its own axis', () => {
    const panels = { ...spec, series: spec.series.map((s) => ({ ...s, axis: `Neto (${s.name})` })) };
    const { root, texts } = readSvg(renderSvgChart(panels));
    for (const label of ['Neto (USD)', 'Neto (MXN)']) expect(texts).toContain(label);
    expect(Number(root.height)).toBeGreaterThan(Number(readSvg(renderSvgChart(spec)).root.height));
    // The tallest USD bar (250.5) and the tallest MXN bar (5,000) each nearly fill their own plot; on one axis USD's would be 5% of MXN's.
    // ECharts draws a bar as `M x y l w 0 l 0 -h l -w 0 Z`, its series' bars marked ecmeta_ssr_type="chart".
    const tallest = (svg: string, color: string) =>
      Math.max(
        ...[...svg.matchAll(/<path d="[^"]*?l0 (-?[\d.]+)[^"]*" fill="([^"]+)"[^>]*ecmeta_ssr_type="chart"/g)]
          .filter((m) => m[2] === color)
          .map((m) => Math.abs(Number(m[1]))),
      );
    const svg = renderSvgChart(panels);
    expect(tallest(svg, SERIES_COLORS[0]) / tallest(svg, SERIES_COLORS[1])).toBeGreaterThan(0.6);
    const shared = renderSvgChart(spec);
    expect(tallest(shared, SERIES_COLORS[0]) / tallest(shared, SERIES_COLORS[1])).toBeLessThan(0.1);
  });

  it('a year of weeks writes every second label (52 would print over each other); a year of months writes all twelve', () => {
    const weeks = Array.from({ length: 52 }, (_, i) => `2026-W${String(i + 1).padStart(2, '0')}`);
    const weekly = { ...spec, categories: weeks, series: [{ name: 'USD', values: weeks.map((_, i) => i) }] };
    const written = readSvg(renderSvgChart(weekly)).texts.filter((t) => t.startsWith('2026-W'));
    expect(written).toEqual(weeks.filter((_, i) => i % 2 === 0));
    const months = Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`);
    const monthly = { ...spec, categories: months, series: [{ name: 'USD', values: months.map((_, i) => i) }] };
    expect(readSvg(renderSvgChart(monthly)).texts.filter((t) => t.startsWith('2026-'))).toEqual(months);
  });

  it('a count axis steps by whole numbers (one delivery is not drawn against 0.2, 0.4, …)', () => {
    const counts = { ...spec, categories: ['a', 'b'], series: [{ name: 'n', values: [0, 1] }] };
    const ticks = readSvg(renderSvgChart(counts)).texts.filter((t) => /^\d+(\.\d+)?$/.test(t));
    expect(ticks).toEqual(['0', '1']);
  });
});
