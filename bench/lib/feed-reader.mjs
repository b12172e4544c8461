// A changes-feed client, run as a child process of the harness (never inside a server): follows
// `GET /v1/changes?…&limit=` from `since` (none: the start), one request at a time on one keep-alive
// connection, each page's `next_cursor` giving the next, until `has_more` is false or `maxRows` are
// read. Usage: node bench/lib/feed-reader.mjs <spec.json> (spec: {baseUrl, path, headers, since?,
// maxRows?}); prints one JSON line: pages, rows, seconds, rows/s, each page's latency and their
// p50, p90, p99 and max, the cursor to go on from and has_more, errors, and a SHA-1 over every page
// body (the last page's next_cursor left out: it is the watermark of the moment it was read), so
// that two servers' reads can be compared byte for byte.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { baseUrl, path, headers, since = null, maxRows = null } = spec;
const url = new URL(baseUrl);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(pathWithQuery) {
  return new Promise((resolveGet, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: 'GET', path: pathWithQuery, headers, agent },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolveGet({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const latencies = [];
const digest = createHash('sha1');
let rows = 0;
let cursor = since;
let hasMore = true;
let failure = null;
const started = performance.now();
for (;;) {
  const t0 = performance.now();
  let res;
  try {
    res = await get(cursor === null ? path : `${path}&since=${encodeURIComponent(cursor)}`);
  } catch (error) {
    failure = `request failed: ${error.message}`;
    break;
  }
  latencies.push(performance.now() - t0);
  if (res.status !== 200) {
    failure = `status ${res.status}: ${res.text.slice(0, 300)}`;
    break;
  }
  const page = JSON.parse(res.text);
  rows += page.data.length;
  digest.update(page.has_more ? res.text : res.text.replace(/"next_cursor":"[^"]*"/, '"next_cursor":null'));
  cursor = page.next_cursor;
  hasMore = page.has_more;
  if (!hasMore || (maxRows !== null && rows >= maxRows)) break;
}
const seconds = (performance.now() - started) / 1000;
agent.destroy();
const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
console.log(
  JSON.stringify({
    pages: latencies.length,
    rows,
    seconds,
    rps: rows / seconds,
    p50_ms: pct(50),
    p90_ms: pct(90),
    p99_ms: pct(99),
    max_ms: pct(100),
    latencies: latencies.map((ms) => Math.round(ms * 100) / 100),
    next_cursor: cursor,
    has_more: hasMore,
    digest: digest.digest('hex'),
    errors: failure ? 1 : 0,
    failure,
  }),
);
