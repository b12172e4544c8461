import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { TestApi } from '../support/api';
import { listenOnLoopback } from '../support/fake-http-server';
import { newTenant, TestTenant } from '../support/factories';
import { REPO_ROOT, runCliOk } from '../support/processes';

/**
 * @church-api/sdk as a user gets it (CONTRACT §19): its generated code is what `npm run sdk:generate` makes
 * of the document now; `npm pack` gives a tarball that installs in an empty project; a program compiled
 * there with `tsc --strict` (sdk/test/consumer/scenario.ts, and the TypeScript of sdk/README.md) runs
 * against the API, and a program with a wrong field name does not compile.
 *
 * The program talks to the API through a proxy here that fails two first attempts of
 * `POST /v1/members`: one answered 503 (Retry-After: 0) before reaching the API, one forwarded and its
 * connection cut before the answer (the API created the member; the client never heard). Each must end
 * with one member, the retry carrying the first attempt's Idempotency-Key (and, after the cut, replayed).
 */

const SDK_DIR = join(REPO_ROOT, 'sdk');
const CONSUMER_DIR = join(SDK_DIR, 'test', 'consumer');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (never rejects on a non-zero exit; the test asserts the code). */
function exec(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function ok(run: Run, what: string): Run {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
  return run;
}

/** One request through the proxy, and what became of it. */
interface ProxiedCall {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** Which failure this POST /v1/members is marked for, by its last_name. */
  marker: 'Retry503' | 'RetryDrop' | undefined;
  outcome: 'forwarded' | 'answered 503' | 'cut after forwarding';
  /** The API's status (none when the proxy answered itself). */
  status?: number;
  replayed?: string;
}

/** An HTTP proxy on 127.0.0.1 in front of the API that fails the first attempt of each marked create. */
class FailingProxy {
  readonly calls: ProxiedCall[] = [];
  private readonly failed = new Set<string>();
  private readonly server: Server;
  port = 0;

  constructor(private readonly upstreamPort: number) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const marker =
          req.method === 'POST' && req.url === '/v1/members'
            ? (/"last_name":"(Retry503|RetryDrop)-/.exec(body.toString('utf8'))?.[1] as ProxiedCall['marker'])
            : undefined;
        const call: ProxiedCall = {
          method: req.method ?? '',
          path: req.url ?? '',
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          marker,
          outcome: 'forwarded',
        };
        this.calls.push(call);
        const failNow = marker !== undefined && !this.failed.has(marker);
        if (failNow) this.failed.add(marker);
        if (failNow && marker === 'Retry503') {
          call.outcome = 'answered 503';
          res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' });
          res.end(
            JSON.stringify({
              type: 'https://docs.example.org/errors/service_unavailable',
              title: 'Service unavailable',
              status: 503,
              detail: 'the proxy is restarting',
              code: 'service_unavailable',
              request_id: 'req_proxy',
            }),
          );
          return;
        }
        const upstream = request(
          { host: '127.0.0.1', port: this.upstreamPort, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            call.status = answer.statusCode;
            call.replayed = answer.headers['idempotent-replayed'] as string | undefined;
            if (failNow && marker === 'RetryDrop') {
              // The API did the work; the client's connection is cut before it hears the answer.
              call.outcome = 'cut after forwarding';
              answer.resume();
              answer.on('end', () => req.socket.destroy());
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => req.socket.destroy());
        upstream.end(body);
      });
    });
  }

  async start(): Promise<this> {
    this.port = await listenOnLoopback(this.server);
    return this;
  }

  creates(marker: 'Retry503' | 'RetryDrop'): ProxiedCall[] {
    return this.calls.filter((c) => c.marker === marker);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What an error looked like to the program (the fields of its ChurchApiError). */
interface ProblemSeen {
  status: number;
  code: string;
  title: string;
  detail?: string;
  request_id?: string;
  errors: { field: string; issue: string; message: string }[];
}

/** The JSON report sdk/test/consumer/scenario.ts prints. */
interface ScenarioReport {
  node: string;
  retries: { created: [string, string]; retry503: string[]; retryDrop: string[] };
  list: { listed: number; distinct: number };
  errors: { notFound: ProblemSeen; invalid: ProblemSeen };
  webhook: { type?: string; firstName?: string; tampered: string[] };
  changes: { op?: string; objectId?: string; phone?: string; previous?: unknown };
}

/** The TypeScript blocks of sdk/README.md, in order, as one module (they continue each other). */
function readmeProgram(): string {
  const readme = readFileSync(join(SDK_DIR, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (blocks.length < 3) throw new Error(`expected TypeScript blocks in sdk/README.md, found ${blocks.length}`);
  return `${blocks.join('\n')}\nexport {};\n`;
}

/** A Node older than the project's 24 on PATH (outside node_modules), to run the program on; null when none. */
async function olderNode(): Promise<{ bin: string; version: string } | null> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const bin = join(dir, 'node');
    if (dir.includes('node_modules') || !existsSync(bin)) continue;
    const version = (await exec(bin, ['--version'], { cwd: REPO_ROOT })).stdout.trim();
    const major = Number(/^v(\d+)\./.exec(version)?.[1]);
    if (major >= 20 && major < 24) return { bin, version };
  }
  return null;
}

describe('@church-api/sdk, from its packed tarball, against the API', () => {
  let work: string;
  let app: string;
  let api: TestApi;
  let church: TestTenant;
  let proxy: FailingProxy;
  /** `npm pack` (which builds the SDK first), started at once: it runs while the drift check does. */
  let packing: Promise<Run>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'church-sdk-'));
    app = join(work, 'app');
    packing = exec('npm', ['pack', '--pack-destination', work], { cwd: SDK_DIR, timeoutMs: 180_000 });
    packing.catch(() => undefined); // awaited (and reported) by the test that needs it
    delete process.env.REDIS_URL; // webhook deliveries in process, from the database outbox
    api = await TestApi.start({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
    const apiPort = await listenOnLoopback(api.app.getHttpServer());
    proxy = await new FailingProxy(apiPort).start();
    church = await newTenant(api);
  });

  afterAll(async () => {
    await packing?.catch(() => undefined);
    await proxy?.close();
    await api?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the committed generated code is what `npm run sdk:generate` makes of the document now', async () => {
    const document = (await runCliOk(['openapi:export'])).stdout;
    const input = join(work, 'openapi.json');
    writeFileSync(input, document);
    const fresh = join(work, 'generated');
    ok(
      await exec(process.execPath, [join(SDK_DIR, 'scripts', 'generate.mjs'), '--input', input, '--out', fresh], {
        cwd: REPO_ROOT,
      }),
      'sdk/scripts/generate.mjs',
    );
    const committed = join(SDK_DIR, 'src', 'generated');
    expect(readdirSync(fresh).sort()).toEqual(readdirSync(committed).sort());
    for (const name of readdirSync(fresh)) {
      const now = readFileSync(join(fresh, name), 'utf8');
      const before = readFileSync(join(committed, name), 'utf8');
      if (now !== before) {
        const lines = [now.split('\n'), before.split('\n')];
        const at = lines[0].findIndex((line, i) => line !== lines[1][i]);
        throw new Error(
          `sdk/src/generated/${name} is not what the document generates now: run \`npm run sdk:generate\` and commit.\n` +
            `first difference at line ${at + 1}:\n  generated: ${lines[0][at]}\n  committed: ${lines[1][at]}`,
        );
      }
    }
  }, 120_000);

  it('packs into a tarball that installs in an empty project, where a strict program compiles and a wrong field does not', async () => {
    ok(await packing, 'npm pack');
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toMatch(/^church-api-sdk-\d+\.\d+\.\d+\.tgz$/);
    const listing = ok(await exec('tar', ['-tzf', join(work, tarball!)], { cwd: work }), 'tar').stdout.split('\n');
    expect(listing).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/webhooks.js',
        'package/dist/generated/openapi.d.ts',
      ]),
    );
    expect(listing.filter((path) => /^package\/(src|test|scripts|bench)\//.test(path))).toEqual([]);

    // An empty project: the tarball and the Node types (from the npm cache when they are there).
    const typesNode = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    rmSync(app, { recursive: true, force: true });
    ok(await exec('mkdir', ['-p', app], { cwd: work }), 'mkdir');
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
    ok(
      await exec(
        'npm',
        ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball!), `@types/node@${typesNode}`],
        { cwd: app, timeoutMs: 180_000 },
      ),
      'npm install of the tarball',
    );
    for (const file of ['tsconfig.json', 'scenario.ts', 'wrong-field.ts'])
      copyFileSync(join(CONSUMER_DIR, file), join(app, file));
    writeFileSync(join(app, 'readme.ts'), readmeProgram());

    writeFileSync(
      join(app, 'tsconfig.wrong.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['wrong-field.ts'] }),
    );
    const [strict, wrong] = await Promise.all([
      exec(process.execPath, [TSC, '-p', app], { cwd: app }),
      exec(process.execPath, [TSC, '-p', join(app, 'tsconfig.wrong.json')], { cwd: app }),
    ]);
    ok(strict, 'tsc --strict of scenario.ts and readme.ts');
    expect(existsSync(join(app, 'dist', 'scenario.js'))).toBe(true);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong-field\.ts\(5,\d+\): error TS2561: .*'last_nam' does not exist/);
    expect(wrong.stdout).toMatch(
      /wrong-field\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  }, 300_000);

  it('runs against the API: a create retried after a 503 and after a cut, 600 members, typed errors, a verified webhook, the changes feed', async () => {
    expect(existsSync(join(app, 'dist', 'scenario.js'))).toBe(true);
    const runId = Date.now().toString(36);
    const run = ok(
      await exec(process.execPath, ['dist/scenario.js'], {
        cwd: app,
        env: {
          ...process.env,
          CHURCH_BASE_URL: `http://127.0.0.1:${proxy.port}`,
          CHURCH_TOKEN: church.token,
          CHURCH_TENANT: church.slug,
          RUN_ID: runId,
        },
      }),
      'the compiled program',
    );
    const report = JSON.parse(run.stdout.trim().split('\n').pop()!) as ScenarioReport;

    // One member each, and both attempts of each create carried one Idempotency-Key.
    const [afterRetry, afterDrop] = report.retries.created;
    expect(report.retries.retry503).toEqual([afterRetry]);
    expect(report.retries.retryDrop).toEqual([afterDrop]);
    const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const retried = proxy.creates('Retry503');
    expect(retried.map((c) => [c.outcome, c.status])).toEqual([
      ['answered 503', undefined],
      ['forwarded', 201],
    ]);
    expect(retried[0].idempotencyKey).toMatch(uuidV4);
    expect(retried[1].idempotencyKey).toBe(retried[0].idempotencyKey);
    const cut = proxy.creates('RetryDrop');
    expect(cut.map((c) => [c.outcome, c.status, c.replayed])).toEqual([
      ['cut after forwarding', 201, undefined],
      ['forwarded', 201, 'true'],
    ]);
    expect(cut[0].idempotencyKey).toMatch(uuidV4);
    expect(cut[1].idempotencyKey).toBe(cut[0].idempotencyKey);
    expect(cut[0].idempotencyKey).not.toBe(retried[0].idempotencyKey);

    // 600 members through `for await`, 100 a page: each once.
    expect(report.list).toEqual({ listed: 600, distinct: 600 });
    const pages = proxy.calls.filter(
      (c) => c.method === 'GET' && c.path.startsWith(`/v1/members?campus=many-${runId}`),
    );
    expect(pages).toHaveLength(6);
    expect(pages.slice(1).every((c) => /[?&]cursor=[^&]+/.test(c.path) && c.path.includes('total=false'))).toBe(true);

    // Errors as ChurchApiError with the problem's fields.
    expect(report.errors.notFound).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect(report.errors.notFound.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(report.errors.invalid).toMatchObject({ status: 422, code: 'validation_failed', title: 'Validation failed' });
    expect(report.errors.invalid.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'email' })]));

    // A real delivery, verified on its raw bytes by verifyWebhook; its tampered copy refused.
    expect(report.webhook).toEqual({
      type: 'member.created',
      firstName: 'Webhook',
      tampered: ['no_matching_signature'],
    });

    // The change made after head(), followed until it came.
    expect(report.changes).toEqual({
      op: 'upsert',
      objectId: afterRetry,
      phone: '+523312345678',
      previous: { phone: null },
    });
  }, 120_000);

  it('runs on an older Node too (20+): the same package, the short part of the program', async () => {
    const older = await olderNode();
    if (!older) {
      console.warn('no Node 20–23 on PATH outside node_modules: the older-Node run is skipped');
      return;
    }
    const run = ok(
      await exec(older.bin, ['dist/scenario.js'], {
        cwd: app,
        env: {
          ...process.env,
          SCENARIO: 'smoke',
          CHURCH_BASE_URL: `http://127.0.0.1:${proxy.port}`,
          CHURCH_TOKEN: church.token,
          CHURCH_TENANT: church.slug,
          RUN_ID: `old${Date.now().toString(36)}`,
        },
      }),
      `the compiled program on Node ${older.version}`,
    );
    const report = JSON.parse(run.stdout.trim().split('\n').pop()!) as { node: string; smoke: Record<string, unknown> };
    expect(report.node).toBe(older.version);
    expect(report.smoke).toMatchObject({
      got: true,
      notFound: { status: 404, code: 'resource_not_found' },
      verified: 'evt_1',
      head: 'string',
    });
    expect(report.smoke.listed).toHaveLength(1);
  }, 60_000);
});
