import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DIST_DIR, NODE_BIN, REPO_ROOT } from './processes';
import { sleep } from './wait';

/** Child processes of a suite (redis-servers, workers): always killed, in afterAll and on exit. */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface Child {
  child: ChildProcess;
  output(): string;
  running(): boolean;
  /** Signal, then SIGKILL after graceMs; resolves once it has exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export function spawnChild(command: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    running,
    async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) {
      if (running()) {
        child.kill(signal);
        const timer = setTimeout(() => running() && child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      await exited;
    },
  };
}

/** `node dist/worker.js` in its own process, once it says it started (its log level must show `log`). */
export async function startWorkerProcess(env: NodeJS.ProcessEnv): Promise<Child> {
  const worker = spawnChild(NODE_BIN, [join(DIST_DIR, 'worker.js')], env);
  const deadline = Date.now() + 30_000;
  while (!worker.output().includes('church-api worker started')) {
    if (!worker.running() || Date.now() > deadline) {
      await worker.stop('SIGKILL');
      throw new Error(`worker did not start:\n${worker.output().slice(-4000)}`);
    }
    await sleep(50);
  }
  return worker;
}
