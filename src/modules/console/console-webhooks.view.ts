import { renderSvgChart } from '../../common/charts/svg-chart';
import { interpolate, Language } from '../../common/i18n/language';
import type { EndpointResponse } from '../webhook-endpoints/dto/endpoint.response';
import { CONSOLE_TEXTS } from './console.texts';

/** A moment as the page's language writes it (date and time, UTC). */
export function shortTime(iso: string | null | undefined, lang: Language, never: string): string {
  return iso
    ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))
    : never;
}

/** An endpoint's health as a badge: its state's word and what it means (failing: until when). */
export function stateOf(endpoint: EndpointResponse, lang: Language) {
  const t = CONSOLE_TEXTS[lang].webhooks;
  const h = endpoint.health;
  const detail =
    h.state === 'failing'
      ? interpolate(t.failingDetail, {
          count: h.consecutive_failures,
          at: shortTime(h.disable_at, lang, t.never),
        })
      : h.state === 'disabled'
        ? (endpoint.disabled_reason ?? '')
        : interpolate(t.healthyDetail, { at: shortTime(h.last_success_at, lang, t.never) });
  return { state: h.state, label: t.states[h.state], detail };
}

export function endpointRows(endpoints: EndpointResponse[], lang: Language) {
  return endpoints.map((e) => ({
    href: `/console/api/webhooks/${e.id}`,
    url: e.url,
    description: e.description,
    events: e.events.join(', '),
    health: stateOf(e, lang),
  }));
}

/**
 * The last 7 days of attempts (UTC days, oldest first) as a bar chart of succeeded and failed per
 * day, drawn by the reports' chart helper from the database's per-day counts; an image (no style
 * or script in the page) with a text alternative, and the same numbers as a table for screen readers.
 */
export function deliveriesChart(
  counts: { day: string; succeeded: number; failed: number }[],
  since: Date,
  lang: Language,
) {
  const t = CONSOLE_TEXTS[lang].webhooks;
  const days = Array.from({ length: 7 }, (_, i) => new Date(since.getTime() + i * 86_400_000));
  const byDay = new Map(counts.map((c) => [c.day, c]));
  const ok = days.map((d) => byDay.get(d.toISOString().slice(0, 10))?.succeeded ?? 0);
  const failed = days.map((d) => byDay.get(d.toISOString().slice(0, 10))?.failed ?? 0);
  const label = (d: Date) =>
    new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);
  const categories = days.map(label);
  const svg = renderSvgChart({
    kind: 'bar',
    title: t.chartTitle,
    categories,
    series: [
      { name: t.succeeded, values: ok },
      { name: t.failedSeries, values: failed },
    ],
    xLabel: t.day,
    yLabel: t.attemptsAxis,
    width: 640,
    height: 320,
  });
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    src: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    alt: interpolate(t.chartAlt, { ok: total(ok), failed: total(failed) }),
    rows: days.map((_, i) => ({ day: categories[i], ok: ok[i], failed: failed[i] })),
  };
}
