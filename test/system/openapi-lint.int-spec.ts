import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { TestApi } from '../support/api';
import { REPO_ROOT } from '../support/processes';

/** `redocly lint` (recommended rules, as configured in redocly.yaml) on the served GET /v1/openapi.json. */

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer?: string }[] }[];
}

const REDOCLY = join(REPO_ROOT, 'node_modules', '.bin', 'redocly');

/** Resolves with redocly's JSON report whatever its exit code (it exits 1 when there are errors). */
function lint(file: string): Promise<LintReport> {
  // No telemetry or update check from CI: the lint itself is offline.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [REDOCLY, 'lint', file, '--config', join(REPO_ROOT, 'redocly.yaml'), '--format=json'],
      { cwd: REPO_ROOT, env, maxBuffer: 32 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as LintReport);
        } catch {
          reject(
            new Error(
              `redocly lint gave no JSON report (${error?.message ?? 'exit 0'}):\n${stderr}\n${stdout.slice(0, 2000)}`,
            ),
          );
        }
      },
    );
  });
}

describe('OpenAPI description under redocly lint', () => {
  let api: TestApi;
  let dir: string;
  let report: LintReport;

  beforeAll(async () => {
    api = await TestApi.start();
    const res = await request(api.app.getHttpServer()).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(res.body, null, 2));
    report = await lint(file);
  });
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await api?.close();
  });

  const listed = (severity: 'error' | 'warn') =>
    report.problems
      .filter((p) => p.severity === severity)
      .map((p) => `${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);

  it('has no errors', () => {
    expect(listed('error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('has no warnings (fix them, or switch the rule off in redocly.yaml with the reason beside it)', () => {
    expect(listed('warn')).toEqual([]);
    expect(report.totals.warnings).toBe(0);
  });
});
