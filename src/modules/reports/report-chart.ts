import type { ChartSeries, ChartSpec } from '../../common/charts/svg-chart';
import type { Language } from '../../common/i18n/language';
import { CurrencyCode, exponentOf } from '../../common/money/currencies';
import type { AttendanceRow, DonorCategory, DonorRow, GivingRow, GroupRow, GrowthRow, Report } from './reports.service';

const TEXT = {
  es: {
    giving: 'Ofrendas netas',
    donors: 'Donantes',
    attendance: 'Asistencia',
    growth: 'Crecimiento',
    groups: 'Grupos',
    fund: 'Fondo',
    campus: 'Campus',
    month: 'Mes',
    week: 'Semana',
    event: 'Evento',
    group: 'Grupo',
    category: 'Categoría',
    net: 'Neto',
    people: 'Personas',
    records: 'Registros de asistencia',
    unique_people: 'Personas distintas',
    new_members: 'Miembros nuevos',
    new_prospects: 'Prospectos nuevos',
    conversions: 'Conversiones',
    net_active: 'Activos netos',
    members: 'Miembros',
    leaders: 'Líderes',
    no_campus: 'Sin campus',
    first_time: 'Primera vez',
    recurring: 'Recurrentes',
    lapsed: 'Inactivos',
  },
  en: {
    giving: 'Net giving',
    donors: 'Donors',
    attendance: 'Attendance',
    growth: 'Growth',
    groups: 'Groups',
    fund: 'Fund',
    campus: 'Campus',
    month: 'Month',
    week: 'Week',
    event: 'Event',
    group: 'Group',
    category: 'Category',
    net: 'Net',
    people: 'People',
    records: 'Check-in records',
    unique_people: 'Unique people',
    new_members: 'New members',
    new_prospects: 'New prospects',
    conversions: 'Conversions',
    net_active: 'Net active',
    members: 'Members',
    leaders: 'Leaders',
    no_campus: 'No campus',
    first_time: 'First time',
    recurring: 'Recurring',
    lapsed: 'Lapsed',
  },
  pt: {
    giving: 'Ofertas líquidas',
    donors: 'Doadores',
    attendance: 'Presença',
    growth: 'Crescimento',
    groups: 'Grupos',
    fund: 'Fundo',
    campus: 'Campus',
    month: 'Mês',
    week: 'Semana',
    event: 'Evento',
    group: 'Grupo',
    category: 'Categoria',
    net: 'Líquido',
    people: 'Pessoas',
    records: 'Registros de presença',
    unique_people: 'Pessoas distintas',
    new_members: 'Novos membros',
    new_prospects: 'Novos visitantes',
    conversions: 'Conversões',
    net_active: 'Ativos líquidos',
    members: 'Membros',
    leaders: 'Líderes',
    no_campus: 'Sem campus',
    first_time: 'Primeira vez',
    recurring: 'Recorrentes',
    lapsed: 'Inativos',
  },
} satisfies Record<Language, Record<string, string>>;

type Words = (typeof TEXT)['en'];

/** Categories in first-seen order, and each series' value per category (null where a row has none). */
function pivot<R>(
  rows: R[],
  category: (r: R) => string,
  seriesOf: (r: R) => { name: string; value: number }[],
): Pick<ChartSpec, 'categories' | 'series'> {
  const categories: string[] = [];
  const series = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const c = category(row);
    if (!categories.includes(c)) categories.push(c);
    for (const { name, value } of seriesOf(row)) {
      const values = series.get(name) ?? new Map<string, number>();
      values.set(c, (values.get(c) ?? 0) + value);
      series.set(name, values);
    }
  }
  return {
    categories,
    series: [...series].map(([name, values]): ChartSeries => ({
      name,
      values: categories.map((c) => values.get(c) ?? null),
    })),
  };
}

/** Amounts in two currencies do not share an axis (a small currency's bars would vanish): one panel per currency when there are several. */
function perCurrencyAxes(
  chart: Pick<ChartSpec, 'categories' | 'series'>,
  axis: (currency: string) => string,
): Pick<ChartSpec, 'categories' | 'series'> {
  if (chart.series.length < 2) return chart;
  return { ...chart, series: chart.series.map((s) => ({ ...s, axis: axis(s.name) })) };
}

const major = (amount: number, currency: string) => amount / 10 ** exponentOf(currency as CurrencyCode);

/** The chart of a report's rows, its words in `lang`: bars, or lines for growth over time. */
export function reportChart(report: Report<object, unknown>, lang: Language): ChartSpec {
  const t: Words = TEXT[lang];
  const groupBy = String(report.params.group_by ?? '');
  const dates = `${report.params.from ?? ''} – ${report.params.to ?? ''}`;
  switch (report.report) {
    case 'giving': {
      const rows = report.rows as GivingRow[];
      const label = (r: GivingRow) => r.fund?.name ?? r.period ?? r.campus?.name ?? t.no_campus;
      return {
        kind: 'bar',
        title: `${t.giving} (${dates})`,
        xLabel: t[groupBy as 'fund' | 'campus' | 'month' | 'week'],
        yLabel: t.net,
        ...perCurrencyAxes(
          pivot(rows, label, (r) => [{ name: r.currency, value: major(r.net, r.currency) }]),
          (currency) => `${t.net} (${currency})`,
        ),
      };
    }
    case 'giving_donors': {
      const rows = report.rows as DonorRow[];
      const order: DonorCategory[] = ['first_time', 'recurring', 'lapsed'];
      const counts = order.map((c) => rows.filter((r) => r.category === c).length);
      return {
        kind: 'bar',
        title: `${t.donors} (${dates})`,
        xLabel: t.category,
        yLabel: t.donors,
        categories: order.map((c) => t[c]),
        series: [{ name: t.donors, values: counts }],
      };
    }
    case 'attendance': {
      const rows = report.rows as AttendanceRow[];
      const label = (r: AttendanceRow) => r.event?.name ?? r.period ?? r.campus?.name ?? t.no_campus;
      return {
        kind: 'bar',
        title: `${t.attendance} (${dates})`,
        xLabel: t[groupBy as 'event' | 'campus' | 'week'],
        yLabel: t.people,
        ...pivot(rows, label, (r) => [
          { name: t.records, value: r.records },
          { name: t.unique_people, value: r.unique_people },
        ]),
      };
    }
    case 'growth': {
      const rows = report.rows as GrowthRow[];
      return {
        kind: 'line',
        title: `${t.growth} (${dates})`,
        xLabel: t.month,
        yLabel: t.people,
        ...pivot(
          rows,
          (r) => r.period,
          (r) =>
            (['new_members', 'new_prospects', 'conversions', 'net_active'] as const).map((k) => ({
              name: t[k],
              value: r[k],
            })),
        ),
      };
    }
    default: {
      const rows = report.rows as GroupRow[];
      return {
        kind: 'bar',
        title: t.groups,
        xLabel: t.group,
        yLabel: t.people,
        ...pivot(
          rows,
          (r) => r.group.name,
          (r) => [
            { name: t.members, value: r.members },
            { name: t.leaders, value: r.leaders },
          ],
        ),
      };
    }
  }
}
