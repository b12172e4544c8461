import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * Helpers for tests that run the built program as a user would: `node dist/cli.js …` and
 * `node dist/main.js`. `npm test` builds first (pretest), so dist/ exists.
 *
 * The children run on the same Node binary as Jest (process.execPath: Node 24), from the repository
 * root, with absolute paths. CHURCH_API_DIST may point to another build of the same repository
 * (handy while a concurrent `nest build` rewrites dist/).
 */
export const REPO_ROOT = resolve(__dirname, '..', '..');
export const DIST_DIR = process.env.CHURCH_API_DIST ? resolve(process.env.CHURCH_API_DIST) : join(REPO_ROOT, 'dist');
export const CLI_JS = join(DIST_DIR, 'cli.js');
export const MAIN_JS = join(DIST_DIR, 'main.js');
export const NODE_BIN = process.execPath;

export type Env = Record<string, string | undefined>;

export interface CliResult {
  /** Exit code; null when the process was killed by a signal (see `signal`). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Replaces the environment (default: process.env, which carries the test DATABASE_URL). */
  env?: Env;
  /** Written to the child's stdin, which is then closed (stdin is always closed). */
  input?: string;
  timeoutMs?: number;
  cwd?: string;
}

function assertBuilt(file: string): void {
  if (!existsSync(file))
    throw new Error(`${file} does not exist: run \`npx nest build\` first (npm test does it in pretest)`);
}

/** Drops undefined values, so `{ ...process.env, DATABASE_URL: undefined }` really unsets it. */
export function cleanEnv(env: Env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Runs `node dist/cli.js ...args`; never rejects on a non-zero exit (the test asserts the code). */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  assertBuilt(CLI_JS);
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      NODE_BIN,
      [CLI_JS, ...args],
      {
        cwd: options.cwd ?? REPO_ROOT,
        env: cleanEnv(options.env ?? process.env),
        timeout: options.timeoutMs ?? 45_000,
        killSignal: 'SIGKILL',
        maxBuffer: 32 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (
          error &&
          typeof (error as { code?: unknown }).code !== 'number' &&
          !(error as { signal?: unknown }).signal
        ) {
          reject(Object.assign(error as Error, { stdout, stderr }));
          return;
        }
        const failure = error as (Error & { code?: number; signal?: NodeJS.Signals | null }) | null;
        resolvePromise({ code: failure ? (failure.code ?? null) : 0, signal: failure?.signal ?? null, stdout, stderr });
      },
    );
    child.stdin?.on('error', () => undefined); // the command may exit before reading stdin
    child.stdin?.end(options.input ?? '');
  });
}

/** Like runCli, but fails with the command's output unless it exits 0. */
export async function runCliOk(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await runCli(args, options);
  if (result.code !== 0) {
    throw new Error(
      `cli ${args.join(' ')} exited ${result.code ?? result.signal}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return result;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort: never leave a server behind when Jest exits before a test's own clean-up ran.
  process.on('exit', () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  baseUrl: string;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** True until the process has exited. */
  isRunning(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartServerOptions {
  env?: Env;
  port?: number;
  /** How long to wait for GET /healthz to answer 200 (PGlite's first start is slow). */
  readyTimeoutMs?: number;
  script?: string;
  cwd?: string;
}

/** Spawns `node dist/main.js` with PORT set and waits until GET /healthz answers 200. */
export async function startServer(options: StartServerOptions = {}): Promise<ServerProcess> {
  const script = options.script ?? MAIN_JS;
  assertBuilt(script);
  installExitHook();
  const port = options.port ?? (await freePort());
  const env = cleanEnv({ ...(options.env ?? process.env), PORT: String(port) });
  const child = spawn(NODE_BIN, [script], { cwd: options.cwd ?? REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 1_000_000) output = output.slice(-500_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      done({ code, signal });
    });
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;

  const server: ServerProcess = {
    child,
    pid: child.pid!,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    isRunning,
    async stop(graceMs = 15_000) {
      if (isRunning()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          if (isRunning()) child.kill('SIGKILL');
        }, graceMs);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      }
      return exited;
    },
  };

  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + readyTimeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!isRunning()) {
      const how = await exited;
      throw new Error(`server exited (${how.code ?? how.signal}) before it was ready:\n${output.slice(-4000)}`);
    }
    try {
      const res = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return server;
      last = `GET /healthz ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await server.stop(2_000);
  throw new Error(`server not ready after ${readyTimeoutMs} ms (${last}):\n${output.slice(-4000)}`);
}

/** True while a process with this pid exists. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
