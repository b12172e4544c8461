// Scenario 16's receivers, in the harness process: an SMTP sink (the `smtp-server` package, as
// test/support/smtp.ts uses) that accepts every message and counts it per envelope recipient, and
// a fake FCM HTTP v1 gateway (a copy of test/support/push-gateway.ts's answer) that counts each
// push per device token. Both count, so the scenario can check that each recipient got one of each.
import { createServer } from 'node:http';
import { requireFromRepo } from './util.mjs';

export const FCM_SEND_PATH = '/v1/projects/bench/messages:send';

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

/** Counts per key, reset between runs. */
class Counter {
  constructor() {
    this.counts = new Map();
    this.total = 0;
  }

  add(key) {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  reset() {
    this.counts = new Map();
    this.total = 0;
  }
}

export async function startSmtpSink() {
  const { SMTPServer } = requireFromRepo('smtp-server');
  const received = new Counter();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo) received.add(r.address.toLowerCase());
        callback();
      });
    },
  });
  const port = await listen(server.server);
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export async function startPushGateway() {
  const received = new Counter();
  let n = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let token = null;
      try {
        token = JSON.parse(Buffer.concat(chunks).toString('utf8')).message?.token ?? null;
      } catch {
        // counted below as a malformed request
      }
      if (req.url !== FCM_SEND_PATH || !token) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end('{"error":{"code":400,"status":"INVALID_ARGUMENT"}}');
      }
      received.add(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: `projects/bench/messages/${++n}` }));
    });
  });
  server.keepAliveTimeout = 65_000;
  const port = await listen(server);
  return {
    received,
    url: `http://127.0.0.1:${port}${FCM_SEND_PATH}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/**
 * Scenario 19's OpenTelemetry collector: an OTLP/HTTP endpoint (`POST /v1/traces`, any encoding)
 * that reads each export whole, counts its requests and bytes, answers 200 and keeps nothing.
 */
export async function startOtlpSink() {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c) => (bytes += c.length));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404);
        return res.end();
      }
      received.requests++;
      received.bytes += bytes;
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' });
      res.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  const port = await listen(server);
  return {
    received,
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
