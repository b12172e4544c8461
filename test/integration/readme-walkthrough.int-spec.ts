import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, REPO_ROOT, ServerProcess, startServer } from '../support/processes';

/**
 * The README's walk-through, run as written: its bash blocks, in order, in one shell, against
 * `node dist/main.js` (what `npm start` runs) and `npm run -s cli`. Only the port (a free one
 * instead of 3000) and the church key (a fresh one instead of `grace`) are substituted.
 */

const SECTION = /## Walk-through\n([\s\S]*?)\n## API conventions/;

function walkthroughScript(port: number, slug: string): string {
  const section = SECTION.exec(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'))?.[1];
  if (!section) throw new Error('README.md has no "## Walk-through" section before "## API conventions"');
  const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (blocks.length < 3) throw new Error(`expected the walk-through's bash blocks, found ${blocks.length}`);
  return blocks
    .join('\n')
    .replaceAll('localhost:3000', `127.0.0.1:${port}`)
    .replace(/\bgrace\b/g, slug);
}

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: REPO_ROOT, env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('README walk-through', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({ env: { ...process.env, REDIS_URL: undefined } });
  });
  afterAll(() => server?.stop());

  it('runs as written, and every step answers what the README says', async () => {
    const slug = `grace-${randomBytes(3).toString('hex')}`;
    const result = await runBash(walkthroughScript(server.port, slug), cleanEnv({ ...process.env, REDIS_URL: undefined }));
    const out = result.stdout;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });

    // Each step's answer, in the order of the README.
    const steps: [string, RegExp][] = [
      ['campus created', /"key":"north","name":"North Campus"/],
      ['member created on it, in English', /"first_name":"María","last_name":"González".*?"gender_label":"Female".*?"campus":\{"id":"cmp_[0-9a-f]{32}","key":"north"/],
      ['filtered list finds her', /\{"data":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María".*?"total":1\}/],
      ['conditional GET', /304\n/],
      ['problem details', /\{"type":"https:\/\/docs\.example\.org\/errors\/missing_tenant","title":"Missing X-Tenant","status":400,/],
      [
        'María is the head of the new household',
        /"name":"Familia González","address":\{[^}]*"city":"Guadalajara"[^}]*\}.*?"members":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María","last_name":"González","household_role":"head"\}\]/,
      ],
      ['tag created', /"id":"tag_[0-9a-f]{32}","name":"Choir","color":"purple"/],
      ['María tagged', /"first_name":"María".*?"household_id":"hh_[0-9a-f]{32}","household_role":"head".*?"tags":\[\{"id":"tag_[0-9a-f]{32}","name":"Choir"\}\]/],
      ['members by tag', /\{"data":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María"[^\n]*?"total":1\}/],
      ['prospect converted into a member', /"first_name":"Luis","last_name":"Ramírez".*?"source":"visit","stage":"converted".*?"converted_at":"[^"]+","member_id":"mem_[0-9a-f]{32}"/],
      [
        "partial refund of María's gift",
        /"id":"don_[0-9a-f]{32}","amount":25000,"currency":"MXN","fund":\{"id":"fnd_[0-9a-f]{32}","name":"Building Fund"\},"donor":\{"id":"mem_[0-9a-f]{32}","first_name":"María"\},"campus":\{"id":"cmp_[0-9a-f]{32}","name":"North Campus"\},"method":"card","status":"partially_refunded".*?"refunded_amount":5000/,
      ],
      [
        'batch committed at its expected total',
        /"id":"bat_[0-9a-f]{32}","description":"Sunday offering","expected_total":15000,"currency":"MXN","status":"committed","count":2,"total":15000/,
      ],
      ["the fund's gifts, the batch's now succeeded", /\{"data":\[(\{"id":"don_[^\n]*?"status":"(succeeded|partially_refunded)"[^\n]*?){3}"total":3\}/],
      ["María's giving", /\{"data":\[\{"id":"don_[0-9a-f]{32}","amount":25000[^\n]*?"total":1\}/],
      ['narrower token, value shown once', /"name":"nightly export".*?"scopes":\["read:members"\].*?"token":"chp_/],
      ['first create', /^HTTP\/1\.1 201 Created\r?$/im],
      ['replayed create', /^idempotent-replayed: true\r?$/im],
      ['rate-limit headers', /^x-ratelimit-limit: \d+\r?$/im],
      ['usage', /"day":\{/],
      ['CORS allowlist', /"allowed_origins":\["https:\/\/app\.example\.org"\]/],
      ['María registered', /"id":"reg_[0-9a-f]{32}","event_id":"evt_[0-9a-f]{32}","member":\{"id":"mem_[0-9a-f]{32}","first_name":"María"/],
      ['the event, in UTC, with her registration', /"id":"evt_[0-9a-f]{32}","name":"Sunday Service"[^\n]*?"starts_at":"2026-12-06T16:00:00\.000Z"[^\n]*?"registration_count":1/],
      [
        'the kiosk finds the González household',
        /\{"data":\[\{"id":"hh_[0-9a-f]{32}","name":"Familia González","members":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María","last_name":"González"[^\]]*?"checked_in":false\}/,
      ],
      ['the kiosk key reads no members', /403\n/],
      [
        'checked in with a security code',
        /"id":"cki_[0-9a-f]{32}","event_id":"evt_[0-9a-f]{32}","security_code":"[BCDFGHJKLMNPRSTXZ2456789]{4}","labels":\[\{"member_id":"mem_[0-9a-f]{32}","first_name":"María"/,
      ],
      ['checked out with the code', /"id":"cki_[0-9a-f]{32}"[^\n]*?"checked_out_at":"[^"]+"/],
      // With DNS the endpoint is created (its secret shown once); without, the SSRF guard answers as the README says.
      ['webhook subscription', /"secret":"whsec_|"code":"invalid_webhook_url"/],
      ['events', /"type":"member\.created"/],
    ];
    let from = 0;
    for (const [step, pattern] of steps) {
      const rest = out.slice(from);
      const match = pattern.exec(rest);
      expect({ step, found: match !== null, output: match ? '' : rest.slice(0, 2000) }).toEqual({ step, found: true, output: '' });
      from += match!.index + match![0].length;
    }
    // Two creates with one Idempotency-Key: the second is the replay of the first (same Location).
    const locations = [...out.matchAll(/^location: (\S+)\r?$/gim)].map((m) => m[1]);
    expect(locations).toHaveLength(2);
    expect(locations[1]).toBe(locations[0]);
  }, 180_000);
});
