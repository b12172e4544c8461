import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cookieFrom, form, hiddenFields } from '../support/oauth-pages';
import { cleanEnv, REPO_ROOT, ServerProcess, startServer } from '../support/processes';

/**
 * The README's walk-through, run as written: its bash blocks, in order, in one shell, against
 * `node dist/main.js` (what `npm start` runs) and `npm run -s cli`. Only the port (a free one
 * instead of 3000) and the church key (a fresh one instead of `grace`) are substituted.
 *
 * The OAuth block's browser step (open the printed authorize URL, sign in, Allow, paste the code at
 * `read -r CODE`) is played over HTTP as a browser would: the test watches the shell's output for
 * the URL, follows the pages' forms with their cookie, and writes the redirect's code to the shell's
 * stdin. The pages in a real browser are oauth-browser.int-spec.ts.
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

/** The staff member the OAuth block creates with `user:create --password-stdin`, as the README writes it. */
const STAFF_PASSWORD = 'correct horse battery staple';
const CALLBACK = 'http://127.0.0.1:8765/callback';
const AUTHORIZE_URL = /(http:\/\/127\.0\.0\.1:\d+\/v1\/oauth\/authorize\?\S+)\n/;

interface BashResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the script in one bash with a stdin pipe. When `onUrl` matches a line of its output, the
 * answer of `respond` (called once) is written to bash's stdin, which is then closed; if it throws,
 * stdin is closed with nothing in it, so the script's `read` fails and bash exits.
 */
function runBash(
  script: string,
  env: NodeJS.ProcessEnv,
  onUrl: RegExp,
  respond: (url: string) => Promise<string>,
): Promise<BashResult> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answered = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.stdin.on('error', () => undefined); // bash may have exited before reading
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = answered ? null : onUrl.exec(stdout);
      if (!url) return;
      answered = true;
      respond(url[1]).then(
        (line) => child.stdin.end(`${line}\n`),
        () => child.stdin.end(),
      );
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!answered) child.stdin.end();
      resolve({ code, stdout, stderr });
    });
  });
}

/** What the browser saw on the way from the authorize URL to the client's redirect. */
interface BrowserVisit {
  steps: string[];
  redirect?: { target: string; code: string | null; state: string | null; iss: string | null };
  error?: string;
}

/**
 * What a browser does with the authorize URL: GET it (the sign-in page, which sets the
 * __Host-oauth_browser cookie), submit the sign-in form with the e-mail and password, submit the consent
 * form with Allow, and stop at the 303 to the client's redirect_uri (nothing listens there).
 * Forms are posted to their `action` with their hidden fields and the cookie, as a browser would.
 */
async function signInAndAllow(url: string, email: string, password: string, visit: BrowserVisit): Promise<string> {
  try {
    const page = await fetch(url, { redirect: 'manual' });
    const signIn = await page.text();
    visit.steps.push(`GET authorize ${page.status}`);
    const cookie = cookieFrom(page.headers.getSetCookie(), '__Host-oauth_browser');
    if (page.status !== 200 || !cookie)
      throw new Error(
        `the authorize URL answered ${page.status} (cookie: ${cookie ?? 'none'}):\n${signIn.slice(0, 1000)}`,
      );
    const submit = async (html: string, fields: Record<string, string>) => {
      const action = /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form on the page:\n${html.slice(0, 1000)}`);
      return fetch(new URL(action.replaceAll('&amp;', '&'), url), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
        body: form({ ...hiddenFields(html), ...fields }),
      });
    };
    const signedIn = await submit(signIn, { email, password });
    const consent = await signedIn.text();
    visit.steps.push(`POST sign-in ${signedIn.status}`);
    if (signedIn.status !== 200 || !/name="decision" value="allow"/.test(consent))
      throw new Error(`the sign-in answered ${signedIn.status}, not the consent page:\n${consent.slice(0, 1000)}`);
    const decided = await submit(consent, { decision: 'allow' });
    await decided.arrayBuffer();
    visit.steps.push(`POST decision ${decided.status}`);
    const location = decided.headers.get('location');
    if (decided.status !== 303 || !location) throw new Error(`Allow answered ${decided.status}, Location ${location}`);
    const back = new URL(location);
    visit.redirect = {
      target: `${back.origin}${back.pathname}`,
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss'),
    };
    if (!visit.redirect.code) throw new Error(`no code in the redirect: ${location}`);
    return visit.redirect.code;
  } catch (error) {
    visit.error = String(error);
    throw error;
  }
}

describe('README walk-through', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({ env: { ...process.env, REDIS_URL: undefined } });
  });
  afterAll(() => server?.stop());

  it('runs as written, and every step answers what the README says', async () => {
    const slug = `grace-${randomBytes(3).toString('hex')}`;
    const script = walkthroughScript(server.port, slug);
    // The staff member the OAuth block creates (its e-mail and password, as the README writes them).
    const email = `ana@${slug}.example`;
    expect(script).toContain(
      `printf '%s' '${STAFF_PASSWORD}' | npm run -s cli -- user:create --tenant ${slug} \\\n  --email ${email} --role staff`,
    );
    const visit: BrowserVisit = { steps: [] };
    const result = await runBash(script, cleanEnv({ ...process.env, REDIS_URL: undefined }), AUTHORIZE_URL, (url) =>
      signInAndAllow(url, email, STAFF_PASSWORD, visit),
    );
    const out = result.stdout;
    // On a failure, the end of the output shows the step that did not answer.
    expect({
      code: result.code,
      stderr: result.stderr,
      browser: visit.error,
      tail: result.code === 0 ? '' : out.slice(-3000),
    }).toEqual({
      code: 0,
      stderr: '',
      browser: undefined,
      tail: '',
    });

    // The browser step: the printed URL led to the sign-in page, the consent page and a 303 back to the
    // client's redirect_uri with the code, the state the script made and the issuer of the metadata.
    expect(visit.steps).toEqual(['GET authorize 200', 'POST sign-in 200', 'POST decision 303']);
    const authorizeUrl = new URL(AUTHORIZE_URL.exec(out)![1]);
    const metadata = (await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
    };
    expect(visit.redirect).toEqual({
      target: CALLBACK,
      code: expect.stringMatching(/^\S{20,}$/),
      state: authorizeUrl.searchParams.get('state'),
      iss: metadata.issuer,
    });
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/);
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Each step's answer, in the order of the README.
    const steps: [string, RegExp][] = [
      ['campus created', /"key":"north","name":"North Campus"/],
      [
        'member created on it, in English',
        /"first_name":"María","last_name":"González".*?"gender_label":"Female".*?"campus":\{"id":"cmp_[0-9a-f]{32}","key":"north"/,
      ],
      ['filtered list finds her', /\{"data":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María".*?"total":1\}/],
      ['conditional GET', /304\n/],
      [
        'problem details',
        /\{"type":"https:\/\/docs\.example\.org\/errors\/missing_tenant","title":"Missing X-Tenant","status":400,/,
      ],
      [
        'María is the head of the new household',
        /"name":"Familia González","address":\{[^}]*"city":"Guadalajara"[^}]*\}.*?"members":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María","last_name":"González","household_role":"head"\}\]/,
      ],
      ['tag created', /"id":"tag_[0-9a-f]{32}","name":"Choir","color":"purple"/],
      [
        'María tagged',
        /"first_name":"María".*?"household_id":"hh_[0-9a-f]{32}","household_role":"head".*?"tags":\[\{"id":"tag_[0-9a-f]{32}","name":"Choir"\}\]/,
      ],
      ['members by tag', /\{"data":\[\{"id":"mem_[0-9a-f]{32}","first_name":"María"[^\n]*?"total":1\}/],
      [
        'prospect converted into a member',
        /"first_name":"Luis","last_name":"Ramírez".*?"source":"visit","stage":"converted".*?"converted_at":"[^"]+","member_id":"mem_[0-9a-f]{32}"/,
      ],
      [
        "partial refund of María's gift",
        /"id":"don_[0-9a-f]{32}","amount":25000,"currency":"MXN","fund":\{"id":"fnd_[0-9a-f]{32}","name":"Building Fund"\},"donor":\{"id":"mem_[0-9a-f]{32}","first_name":"María"\},"campus":\{"id":"cmp_[0-9a-f]{32}","name":"North Campus"\},"method":"card","status":"partially_refunded".*?"refunded_amount":5000/,
      ],
      [
        'batch committed at its expected total',
        /"id":"bat_[0-9a-f]{32}","description":"Sunday offering","expected_total":15000,"currency":"MXN","status":"committed","count":2,"total":15000/,
      ],
      [
        "the fund's gifts, the batch's now succeeded",
        /\{"data":\[(\{"id":"don_[^\n]*?"status":"(succeeded|partially_refunded)"[^\n]*?){3}"total":3\}/,
      ],
      ["María's giving", /\{"data":\[\{"id":"don_[0-9a-f]{32}","amount":25000[^\n]*?"total":1\}/],
      ['narrower token, value shown once', /"name":"nightly export".*?"scopes":\["read:members"\].*?"token":"chp_/],
      ['first create', /^HTTP\/1\.1 201 Created\r?$/im],
      ['replayed create', /^idempotent-replayed: true\r?$/im],
      ['rate-limit headers', /^x-ratelimit-limit: \d+\r?$/im],
      ['usage', /"day":\{/],
      ['CORS allowlist', /"allowed_origins":\["https:\/\/app\.example\.org"\]/],
      [
        'María registered',
        /"id":"reg_[0-9a-f]{32}","event_id":"evt_[0-9a-f]{32}","member":\{"id":"mem_[0-9a-f]{32}","first_name":"María"/,
      ],
      [
        'the event, in UTC, with her registration',
        /"id":"evt_[0-9a-f]{32}","name":"Sunday Service"[^\n]*?"starts_at":"2026-12-06T16:00:00\.000Z"[^\n]*?"registration_count":1/,
      ],
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
      // OAuth 2.0 with PKCE (curl prints no newline after a JSON answer, so most are not anchored to a line).
      ['staff member with a password', /usr_[0-9a-f]{32}\n/],
      ['public client registered', /^app_[0-9a-f]{32}$/m],
      [
        'server metadata',
        /\{"issuer":"[^"]+","authorization_endpoint":"[^"]+\/v1\/oauth\/authorize","token_endpoint":"[^"]+\/v1\/oauth\/token","revocation_endpoint":"[^"]+\/v1\/oauth\/revoke"[^\n]*"code_challenge_methods_supported":\["S256"\],"authorization_response_iss_parameter_supported":true/,
      ],
      [
        'authorize URL',
        /http:\/\/127\.0\.0\.1:\d+\/v1\/oauth\/authorize\?response_type=code&client_id=app_[0-9a-f]{32}&redirect_uri=[^&\s]+&scope=read%3Amembers\+read%3Aevents&state=[0-9a-f]{32}&code_challenge=[A-Za-z0-9_-]{43}&code_challenge_method=S256\n/,
      ],
      [
        'tokens for the code',
        /^\{"access_token":"cho_[0-9A-Za-z]{36}","token_type":"Bearer","expires_in":3600,"refresh_token":"chr_[0-9A-Za-z]{36}","scope":"read:members read:events"\}\n/m,
      ],
      ['the cho_ token reads members', /^\{"data":\[\{"id":"mem_[0-9a-f]{32}"[^\n]*?"total":\d+\}/m],
      ['no donations outside the granted scopes', /403\n/],
      [
        'the app in her authorized apps',
        /^\{"data":\[\{"id":"app_[0-9a-f]{32}","client_id":"app_[0-9a-f]{32}","client_name":"Check-in App","scopes":\["read:(members|events)","read:(members|events)"\][^\n]*?"total":1\}/m,
      ],
      [
        'refreshed',
        /\{"access_token":"cho_[0-9A-Za-z]{36}","token_type":"Bearer","expires_in":3600,"refresh_token":"chr_[0-9A-Za-z]{36}","scope":"read:members read:events"\}\n/,
      ],
      ['revoked', /^200$/m],
      [
        'the access token refused after',
        /^\{"type":"https:\/\/docs\.example\.org\/errors\/token_revoked","title":"Token revoked","status":401/m,
      ],
      [
        'the refresh token refused after',
        /\{"error":"invalid_grant","error_description":"the refresh token has been revoked"\}/,
      ],
      // Reports: the fund's three gifts (María's, partly refunded, and the batch's two), as JSON and CSV, then a chart.
      [
        'giving by fund',
        /\{"report":"giving","params":\{[^}]*"group_by":"fund"[^}]*\},"generated_at":"[^"]+","rows":\[\{"fund":\{"id":"fnd_[0-9a-f]{32}","name":"Building Fund"\},"currency":"MXN","count":3,"amount":40000,"refunded":5000,"net":35000\}\],"totals":\[\{"currency":"MXN","count":3,"amount":40000,"refunded":5000,"net":35000\}\]\}/,
      ],
      [
        'the same as CSV',
        /fund_id,fund_name,currency,count,amount,refunded,net\r\nfnd_[0-9a-f]{32},Building Fund,MXN,3,40000,5000,35000\r\n/,
      ],
      ['a chart', /<svg width="800" height="420" xmlns="http:\/\/www\.w3\.org\/2000\/svg"/],
      // The changes feed: María's new phone number with its old value, and her history.
      [
        'the change followed from head',
        /\{"data":\[\{"id":"chg_\d+","object_type":"member","object_id":"mem_[0-9a-f]{32}","op":"upsert"[^\n]*?"phone":"\+523312345678"[^\n]*?"previous_attributes":\{"phone":null\}[^\n]*?\],"next_cursor":"[A-Za-z0-9_-]+","has_more":false\}/,
      ],
      [
        'her history, newest first',
        /\{"data":\[\{"id":"chg_\d+","changed_at":"[^"]+","op":"update","actor":\{[^}]*"type":"token"[^}]*\},"request_id":"req_[0-9a-f]{32}","changes":\{"phone":\{"from":null,"to":"\+523312345678"\}\}/,
      ],
    ];
    let from = 0;
    for (const [step, pattern] of steps) {
      const rest = out.slice(from);
      const match = pattern.exec(rest);
      expect({ step, found: match !== null, output: match ? '' : rest.slice(0, 2000) }).toEqual({
        step,
        found: true,
        output: '',
      });
      from += match!.index + match![0].length;
    }
    // Two creates with one Idempotency-Key: the second is the replay of the first (same Location).
    const locations = [...out.matchAll(/^location: (\S+)\r?$/gim)].map((m) => m[1]);
    expect(locations).toHaveLength(2);
    expect(locations[1]).toBe(locations[0]);
    // Refresh rotates: two answers of the token endpoint, each with its own access and refresh token.
    const issued = [
      ...out.matchAll(
        /\{"access_token":"(cho_\w+)","token_type":"Bearer","expires_in":3600,"refresh_token":"(chr_\w+)"/g,
      ),
    ].map((m) => [m[1], m[2]]);
    expect(issued).toHaveLength(2);
    expect(new Set(issued.flat()).size).toBe(4);
  }, 180_000);
});
