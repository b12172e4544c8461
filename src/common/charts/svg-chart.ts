import * as echarts from 'echarts';

/** One line or set of bars: a value per category (null: no value there). */
export interface ChartSeries {
  name: string;
  values: (number | null)[];
  /**
   * The name of the value axis this series is read against, when it differs from the chart's
   * (amounts in different currencies): each such axis gets a panel of its own, one above the other.
   */
  axis?: string;
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

/** The plot height of each panel of a chart with several value axes. */
const PANEL_PLOT = 220;
/** The least room along x a category label takes (written at an angle it is about a line high across). */
const LABEL_ROOM = 24;

/**
 * Renders a chart as a standalone SVG document with ECharts' server-side renderer (no DOM, no
 * canvas): axes with their names, a legend, bars or lines, no animation.
 */
export function renderSvgChart(spec: ChartSpec): string {
  const axes = [...new Set(spec.series.map((s) => s.axis ?? spec.yLabel))];
  const width = spec.width ?? 800;
  // Many categories (a year of months, weeks) are written at an angle, their axis name further down.
  const rotated = spec.categories.length > 8;
  // More labels than fit (a year of weeks) would print over each other: then every n-th is written.
  const whole = spec.series.every((s) => s.values.every((v) => v === null || Number.isInteger(v)));
  const labelEvery = Math.max(1, Math.ceil((spec.categories.length * LABEL_ROOM) / (width - 140)));
  const bottom = rotated ? 80 : 60;
  const single = spec.height ?? 420;
  // One panel: the plot fills the chart, its labels inside the grid's box. More: plots of one height
  // one above the other on one left edge (their value labels differ in width), so that their
  // categories line up, each with room below it for its category labels and axis name.
  const below = rotated ? 120 : 80;
  const grids =
    axes.length === 1
      ? [{ top: 90, bottom, left: 80, right: 30, containLabel: true }]
      : axes.map((_, i) => ({ top: 90 + i * (PANEL_PLOT + below), height: PANEL_PLOT, left: 110, right: 30 }));
  const height = axes.length === 1 ? single : 90 + axes.length * (PANEL_PLOT + below);
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      color: SERIES_COLORS,
      title: { text: spec.title, left: 'center', textStyle: { fontSize: 16 } },
      backgroundColor: '#ffffff',
      legend: { top: 42, data: spec.series.map((s) => s.name) },
      grid: grids,
      xAxis: axes.map((_, i) => ({
        gridIndex: i,
        type: 'category',
        data: spec.categories,
        name: spec.xLabel,
        nameLocation: 'middle',
        nameGap: rotated ? 70 : 40,
        axisLabel: { interval: labelEvery - 1, rotate: rotated ? 40 : 0 },
      })),
      // Counts (every value whole) step by whole numbers: no 0.2 of a delivery on a quiet week.
      yAxis: axes.map((name, i) => ({
        gridIndex: i,
        type: 'value',
        name,
        nameLocation: 'middle',
        nameGap: 60,
        ...(whole ? { minInterval: 1 } : {}),
      })),
      series: spec.series.map((s) => {
        const panel = axes.indexOf(s.axis ?? spec.yLabel);
        return {
          name: s.name,
          type: spec.kind,
          data: s.values,
          xAxisIndex: panel,
          yAxisIndex: panel,
          ...(spec.kind === 'line' ? { showSymbol: true } : {}),
        };
      }),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
