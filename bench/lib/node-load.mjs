// Fallback load generators, run as a child process of the harness (never inside a server):
// autocannon when installed, otherwise a small closed-loop keep-alive client on node:http.
// Usage: node bench/lib/node-load.mjs <spec.json>; prints one JSON line (the same fields as wrk's).
// A request with `idempotencyKey: true` gets a fresh `Idempotency-Key` (UUID v4) each time.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { baseUrl, requests, connections, seconds, loader } = spec;
const bodies = requests.map((r) =>
  r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : JSON.stringify(r.body),
);

if (loader === 'autocannon') {
  const repo = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
  const autocannon = createRequire(join(repo, 'package.json'))('autocannon');
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: requests.map((r, i) => ({
      method: r.method ?? 'GET',
      path: r.path,
      headers: r.headers,
      body: bodies[i],
      ...(r.idempotencyKey
        ? { setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'Idempotency-Key': randomUUID() } }) }
        : {}),
    })),
  });
  const non2xx = result.non2xx ?? 0;
  console.log(
    JSON.stringify({
      loader: 'autocannon',
      requests: result.requests.total,
      seconds: result.duration,
      rps: result.requests.total / result.duration,
      p50_ms: result.latency.p50,
      p90_ms: result.latency.p90,
      p99_ms: result.latency.p99,
      max_ms: result.latency.max,
      errors: result.errors + result.timeouts,
      non2xx,
    }),
  );
} else {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(baseUrl);
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const one = (i) =>
    new Promise((done) => {
      const r = requests[i];
      const t0 = performance.now();
      const body = bodies[i];
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: r.method ?? 'GET',
          path: r.path,
          headers: {
            ...r.headers,
            ...(r.idempotencyKey ? { 'Idempotency-Key': randomUUID() } : {}),
            ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}),
          },
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (res.statusCode >= 400) non2xx++;
            done();
          });
        },
      );
      req.on('error', () => {
        errors++;
        done();
      });
      req.end(body);
    });
  const lane = async () => {
    while (performance.now() < deadline) {
      const i = next;
      next = (next + 1) % requests.length;
      await one(i);
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  const secs = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? null;
  console.log(
    JSON.stringify({
      loader: 'node',
      requests: latencies.length,
      seconds: secs,
      rps: latencies.length / secs,
      p50_ms: pct(50),
      p90_ms: pct(90),
      p99_ms: pct(99),
      max_ms: pct(100),
      errors,
      non2xx,
    }),
  );
  agent.destroy();
}
