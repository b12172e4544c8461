// Scenario 19: what operators' tools cost (CONTRACT §22). Scenario 1's member list on three API
// processes started alike but for what is turned on: nothing; metrics (METRICS_TOKEN, and /metrics
// scraped every second, more often than Prometheus would); metrics and traces
// (OTEL_EXPORTER_OTLP_ENDPOINT, OTLP/HTTP protobuf, every request sampled, to a loopback sink that
// discards them). The three are measured alternately in the same invocation; the ratios are on/off.
import { series } from '../lib/measure.mjs';
import { startApi, writeServerLog } from '../lib/servers.mjs';
import { startOtlpSink } from '../lib/sinks.mjs';
import { freePort, log } from '../lib/util.mjs';
import { acrossChurches, ratioRow } from './http.mjs';

const METRICS_TOKEN = 'bench-metrics-token';
const SCRAPE_EVERY_MS = 1_000;

/** Scrapes each server's /metrics every SCRAPE_EVERY_MS until stopped; counts the scrapes that answered 200. */
function scrapeEvery(servers) {
  const scraped = { ok: 0, failed: 0 };
  const timer = setInterval(() => {
    for (const server of servers)
      fetch(server.url('/metrics'), { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) scraped.ok++;
          else scraped.failed++;
        })
        .catch(() => scraped.failed++);
  }, SCRAPE_EVERY_MS);
  return { scraped, stop: () => clearInterval(timer) };
}

export async function scenario19(ctx) {
  const sink = await startOtlpSink();
  const servers = [];
  let scraper;
  try {
    const start = async (name, env) => {
      const server = await startApi({ port: await freePort(), name, env });
      servers.push(server);
      return server;
    };
    const plain = await start('api-plain', {});
    const metered = await start('api-metrics', { METRICS_TOKEN });
    const traced = await start('api-traced', {
      METRICS_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    log(`  API without metrics pid ${plain.pid}, with metrics ${metered.pid}, with metrics and traces ${traced.pid}`);
    const requests = acrossChurches(ctx, '/v1/members?limit=50');
    for (const server of servers) {
      const res = await fetch(server.url(requests[0].path), { headers: requests[0].headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`scenario 19: ${server.name} answered ${res.status}`);
    }
    scraper = scrapeEvery([metered, traced]);
    const r = await series([
      { key: '19:off', server: plain, requests, connections: 32 },
      { key: '19:metrics', server: metered, requests, connections: 32 },
      { key: '19:traced', server: traced, requests, connections: 32 },
    ]);
    scraper.stop();
    if (!scraper.scraped.ok || scraper.scraped.failed)
      throw new Error(`scenario 19: scrapes ${JSON.stringify(scraper.scraped)}: /metrics was not served`);
    if (!sink.received.requests) throw new Error('scenario 19: no trace reached the OTLP sink');
    const notes = {
      scrapes: scraper.scraped.ok,
      otlp_exports: sink.received.requests,
      otlp_bytes: sink.received.bytes,
    };
    return [
      ratioRow(
        '19',
        'scenario 1 with metrics on (scraped every second) ÷ off',
        r['19:metrics'],
        r['19:off'],
        0.95,
        notes,
      ),
      ratioRow(
        '19',
        'scenario 1 with metrics and traces on (every request, OTLP to a loopback sink) ÷ off (info)',
        r['19:traced'],
        r['19:off'],
        null,
        notes,
      ),
    ];
  } finally {
    scraper?.stop();
    for (const server of servers) {
      await server.stop();
      writeServerLog(server);
    }
    await sink.close();
  }
}
