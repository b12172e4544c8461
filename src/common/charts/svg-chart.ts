import * as echarts from 'echarts';

/** One line or set of bars: a value per category (null: no value there). */
export interface ChartSeries {
  name: string;
  values: (number | null)[];
}

/** A chart of report rows: categories along x (funds, campuses, periods), one series per measure or currency. */
export interface ChartSpec {
  kind: 'bar' | 'line';
  title: string;
  categories: string[];
  series: ChartSeries[];
  /** Axis names, already in the reader's language. */
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
}

/** The palette's first colours: a series' bars and its legend mark share one. */
export const SERIES_COLORS = ['#2455a4', '#d97706', '#059669', '#b91c1c', '#7c3aed', '#0891b2'];

/**
 * Renders a chart as a standalone SVG document with ECharts' server-side renderer (no DOM, no
 * canvas): axes with their names, a legend, bars or lines, no animation.
 */
export function renderSvgChart(spec: ChartSpec): string {
  const width = spec.width ?? 800;
  const height = spec.height ?? 420;
  // Many categories (a year of months, weeks) are written at an angle, their axis name further down.
  const rotated = spec.categories.length > 8;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      color: SERIES_COLORS,
      title: { text: spec.title, left: 'center', textStyle: { fontSize: 16 } },
      backgroundColor: '#ffffff',
      legend: { top: 42, data: spec.series.map((s) => s.name) },
      grid: { top: 90, left: 80, right: 30, bottom: rotated ? 80 : 60, containLabel: true },
      xAxis: { type: 'category', data: spec.categories, name: spec.xLabel, nameLocation: 'middle', nameGap: rotated ? 70 : 40, axisLabel: { interval: 0, rotate: rotated ? 40 : 0 } },
      yAxis: { type: 'value', name: spec.yLabel, nameLocation: 'middle', nameGap: 60 },
      series: spec.series.map((s) => ({ name: s.name, type: spec.kind, data: s.values, ...(spec.kind === 'line' ? { showSymbol: true } : {}) })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
