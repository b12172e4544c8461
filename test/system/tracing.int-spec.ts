import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { TestApi } from '../support/api';
import { cancelPendingDeliveries, newTenant, newWebhookEndpoint, TestTenant } from '../support/factories';
import { descendsFrom, OtlpReceiver, ReceivedSpan, SPAN_KIND } from '../support/otlp-receiver';
import { cleanEnv, DIST_DIR, NODE_BIN, REPO_ROOT, ServerProcess, startServer } from '../support/processes';
import { TestReceiver } from '../support/receiver';
import { TEST_REDIS_URL } from '../support/test-env';
import { waitFor } from '../support/wait';
import { Child, startWorkerProcess } from '../support/worker-process';

/**
 * OpenTelemetry traces (CONTRACT §22): with OTEL_EXPORTER_OTLP_ENDPOINT set, the API process and a
 * worker export to a collector (a loopback OTLP/HTTP receiver here) the request's span, named by
 * its route template, its queries under it, and the processing of the delivery job it enqueued in
 * the worker, in the same trace. Without the variable nothing of the SDK is loaded.
 */

const isDb = (span: ReceivedSpan) =>
  span.kind === SPAN_KIND.client &&
  (span.attributes['db.system.name'] ?? span.attributes['db.system']) === 'postgresql';

describe('tracing: OpenTelemetry with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let api: TestApi;
  let collector: OtlpReceiver;
  let receiver: TestReceiver;
  let server: ServerProcess;
  let worker: Child;
  let church: TestTenant;
  const churches: TestTenant[] = [];

  beforeAll(async () => {
    [collector, receiver] = await Promise.all([OtlpReceiver.start(), TestReceiver.start()]);
    const shared = {
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `otel-${randomBytes(3).toString('hex')}`,
      ENCRYPTION_KEY: Buffer.alloc(32, 41).toString('base64'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    };
    api = await TestApi.start(shared);
    church = await newTenant(api);
    churches.push(church);
    const traced = cleanEnv({
      ...process.env,
      ...shared,
      LOG_LEVEL: 'log',
      NO_COLOR: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: undefined,
    });
    [server, worker] = await Promise.all([startServer({ env: traced }), startWorkerProcess(traced)]);
  }, 90_000);

  afterAll(async () => {
    if (api)
      await cancelPendingDeliveries(
        api,
        churches.map((c) => c.id),
      ).catch(() => undefined);
    await Promise.all([worker?.stop('SIGTERM', 5_000), server?.stop(5_000)]);
    await api?.close();
    await Promise.all([receiver?.close(), collector?.close()]);
    delete process.env.REDIS_URL;
  }, 60_000);

  const createMember = (firstName: string, lastName: string, headers: Record<string, string> = {}, by = church) =>
    fetch(`${server.baseUrl}/v1/members`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${by.token}`,
        'X-Tenant': by.slug,
        'Content-Type': 'application/json',
        ...headers,
      },
      body: JSON.stringify({ first_name: firstName, last_name: lastName }),
    });

  it("a request's span (route template), its queries under it, and the worker's delivery job in the same trace", async () => {
    const path = `/hooks/traced-${randomBytes(3).toString('hex')}`;
    await newWebhookEndpoint(api, church, { url: receiver.url(path), events: ['member.created'] });

    const res = await createMember('Grace', 'Hopper');
    expect(res.status).toBe(201);
    await receiver.waitForCount(path, 1);

    const request = await waitFor(
      () =>
        collector
          .spans()
          .find(
            (span) =>
              span.kind === SPAN_KIND.server &&
              span.attributes['http.route'] === '/v1/members' &&
              (span.attributes['http.request.method'] ?? span.attributes['http.method']) === 'POST',
          ),
      { what: () => `the server span of POST /v1/members; got ${collector.spans().length} span(s)`, interval: 50 },
    );
    expect(request).toEqual(
      expect.objectContaining({ name: 'POST /v1/members', parentSpanId: '', resource: expect.anything() }),
    );
    expect(request.resource['service.name']).toBe('church-api');

    const job = await waitFor(
      () =>
        collector
          .trace(request.traceId)
          .find((span) => span.kind === SPAN_KIND.consumer && span.resource['service.name'] === 'church-api-worker'),
      {
        what: () => `the worker's span in trace ${request.traceId}: ${names(collector.trace(request.traceId))}`,
        interval: 50,
      },
    );
    expect(job.name).toBe('process webhook-deliveries');
    expect(job.resource['process.pid']).toBe(worker.child.pid);

    const spans = collector.trace(request.traceId);
    const queries = spans.filter((span) => isDb(span) && span.resource['service.name'] === 'church-api');
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) expect(descendsFrom(query, request, spans)).toBe(true);
    // The INSERT of the member, among them.
    expect(queries.map((q) => String(q.attributes['db.query.text'] ?? q.attributes['db.statement']))).toContainEqual(
      expect.stringMatching(/INSERT INTO "?members"?/i),
    );
    // The job was added under the request; the worker's own queries sit under the job.
    const added = spans.find(
      (span) => span.kind === SPAN_KIND.producer && span.resource['service.name'] === 'church-api',
    );
    expect(added && descendsFrom(added, request, spans)).toBe(true);
    const workerQueries = await waitFor(
      () =>
        collector
          .trace(request.traceId)
          .filter((span) => isDb(span) && descendsFrom(span, job, collector.trace(request.traceId))),
      { what: "the worker's queries under the job", until: (found) => found.length > 0 },
    );
    expect(workerQueries.every((q) => q.resource['service.name'] === 'church-api-worker')).toBe(true);

    // Spans carry no secret: neither the church's token nor the member's name (queries are sent without their values).
    const exported = JSON.stringify(collector.spans());
    expect(exported).not.toContain(church.token);
    expect(exported).not.toContain('Hopper');
  });

  it("concurrent requests whose deliveries are enqueued together: each job continues its own request's trace", async () => {
    const other = await newTenant(api);
    churches.push(other);
    const path = `/hooks/burst-${randomBytes(3).toString('hex')}`;
    await newWebhookEndpoint(api, other, { url: receiver.url(path), events: ['member.created'] });
    // Each client call starts its own trace (W3C traceparent), which the API continues.
    const traces = Array.from({ length: 6 }, () => randomBytes(16).toString('hex'));
    const answers = await Promise.all(
      traces.map((traceId, i) =>
        createMember(
          `Burst${i}`,
          'Traced',
          { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
          other,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(traces.map(() => 201));
    await receiver.waitForCount(path, traces.length);

    const kinds = (traceId: string) =>
      collector
        .trace(traceId)
        .filter((span) => span.kind === SPAN_KIND.server || span.kind === SPAN_KIND.consumer)
        .map((span) => `${span.resource['service.name']} ${span.name}`)
        .sort();
    // One request and one job (its delivery) in each trace, none in another's.
    const expected = ['church-api POST /v1/members', 'church-api-worker process webhook-deliveries'];
    await waitFor(() => traces.map(kinds), {
      what: 'a request span and a job span in each trace',
      until: (found) => found.every((spans) => spans.length >= expected.length),
      interval: 50,
    });
    expect(traces.map(kinds)).toEqual(traces.map(() => expected));
  });

  it("probes, scrapes and BullMQ's housekeeping are not traced", async () => {
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    const probe = await fetch(`${server.baseUrl}/v1/members?limit=1`, {
      headers: { Authorization: `Bearer ${church.token}`, 'X-Tenant': church.slug },
    });
    expect(probe.status).toBe(200);
    // Once the later request is exported, the earlier probe would have been too.
    await waitFor(
      () => collector.spans().some((span) => span.kind === SPAN_KIND.server && span.name === 'GET /v1/members'),
      { what: 'the span of GET /v1/members' },
    );
    expect(collector.spans().filter((span) => String(span.attributes['url.path']).startsWith('/readyz'))).toEqual([]);
    // The worker checked its queues for stalled jobs when it started (before the job above was processed).
    expect(names(collector.spans().filter((span) => /stalled/i.test(span.name)))).toBe('');
  });

  it('without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry SDK module is loaded', async () => {
    const off = await probeModules(cleanEnv({ ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: undefined }));
    expect(off).toEqual([]);
    const on = await probeModules(cleanEnv({ ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin }));
    expect(on).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-node', '@opentelemetry/instrumentation-pg', 'bullmq-otel']),
    );
  });
});

function names(spans: ReceivedSpan[]): string {
  return spans.map((s) => `${s.resource['service.name']}:${s.name}`).join(', ');
}

/** The OpenTelemetry packages (SDK, exporters, instrumentations, bullmq-otel) a process has loaded once the API's modules are required after its tracing entry. */
function probeModules(env: NodeJS.ProcessEnv): Promise<string[]> {
  const script = `
    require(${JSON.stringify(`${DIST_DIR}/tracing-api.js`)});
    require('reflect-metadata');
    require(${JSON.stringify(`${DIST_DIR}/app.module.js`)});
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@opentelemetry\\/[^/]+)|bullmq-otel)\\//.exec(file);
      if (m && m[1] !== '@opentelemetry/api') names.add(m[1]);
    }
    process.stdout.write(JSON.stringify([...names]));
    process.exit(0);`;
  return new Promise((resolve, reject) =>
    execFile(
      NODE_BIN,
      ['-e', script],
      { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 30_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as string[]),
    ),
  );
}
