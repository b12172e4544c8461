import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startBackground } from '../../src/background';
import { TenantContext } from '../../src/common/context/tenant-context';
import { loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { BackgroundJob, JobContext, JobHandler } from '../../src/platform/jobs/background-job';
import { JobsService } from '../../src/platform/jobs/jobs.service';
import type { JobKind } from '../../src/platform/jobs/queues';
import { WorkerModule } from '../../src/worker.module';
import { TestApi } from '../support/api';
import { inTenant, newMembers, newTenant, TestTenant } from '../support/factories';
import { sleep, waitFor } from '../support/wait';

const PROBE = 'probe' as JobKind;

interface ProbeData {
  failures: number;
}

/** A job kind of this test only: reads its church's members in the church's context, reports progress, fails `failures` times. */
@BackgroundJob({ kind: PROBE, maxAttempts: 3 })
@Injectable()
class ProbeJob implements JobHandler<ProbeData> {
  readonly runs: { id: string; attempt: number; at: number }[] = [];

  async run(context: JobContext<ProbeData>): Promise<unknown> {
    this.runs.push({ id: context.id, attempt: context.attempt, at: Date.now() });
    await context.progress(1, 2);
    if (context.attempt <= context.data.failures) throw new Error(`probe failure ${context.attempt}`);
    const [seen] = await context.inTenant(() =>
      TenantContext.current().manager.query<{ tenant: string; members: number }[]>(
        `SELECT current_setting('app.tenant_id') AS tenant, count(*)::int AS members FROM members`,
      ),
    );
    await context.progress(2, 2);
    return seen;
  }
}

@Module({ providers: [ProbeJob] })
class ProbeModule {}

interface JobRow {
  tenant_id: string | null;
  status: string;
  attempts: number;
  total: number | null;
  done: number;
  result: unknown;
  last_error: string | null;
}

describe('background jobs: the pattern every kind of work uses (in-process, without Redis)', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let probe: ProbeJob;
  let church: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    api = await TestApi.start({ JOB_RETRY_BASE_MS: '100' });
    // The probe's own process: the worker's module graph plus the probe kind.
    worker = await NestFactory.createApplicationContext(
      { module: ProbeModule, imports: [WorkerModule.forRoot(loadConfig())] },
      { logger: ['error'] },
    );
    await worker.get(Database).connect();
    startBackground(worker, 'worker');
    probe = worker.get(ProbeJob);
    church = await newTenant(api);
    other = await newTenant(api);
    await newMembers(api, church, [
      { first_name: 'Ana', last_name: 'Uno' },
      { first_name: 'Beto', last_name: 'Dos' },
    ]);
    await newMembers(api, other, [{ first_name: 'Otra', last_name: 'Iglesia' }]);
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  /** A church's job (background_jobs) or a platform job (platform_jobs), read past row-level security. */
  const row = async (id: string, table = 'background_jobs'): Promise<JobRow> =>
    (
      await api.db.platform.query<JobRow[]>(
        `SELECT ${table === 'platform_jobs' ? 'NULL::uuid AS tenant_id' : 'tenant_id'}, status, attempts, total, done, result, last_error FROM ${table} WHERE id = $1`,
        [id],
      )
    )[0];

  async function settled(id: string, table?: string): Promise<JobRow> {
    return waitFor(() => row(id, table), {
      what: `job ${id} to settle`,
      until: (r) => r.status === 'done' || r.status === 'failed',
    });
  }

  const enqueueIn = (c: TestTenant, data: ProbeData) =>
    inTenant(api, c.id, () => worker.get(JobsService).enqueue(PROBE, { ...data }));

  it("runs after its church's commit, in that church's context, and records progress", async () => {
    const id = (await enqueueIn(church, { failures: 0 }))!;
    const done = await settled(id);
    expect(done).toEqual({
      tenant_id: church.id,
      status: 'done',
      attempts: 1,
      total: 2,
      done: 2,
      result: { tenant: church.id, members: 2 },
      last_error: null,
    });
  });

  it('retries a failed run with exponential backoff and keeps the failure on the job', async () => {
    const id = (await enqueueIn(other, { failures: 2 }))!;
    const done = await settled(id);
    expect(done).toMatchObject({
      status: 'done',
      attempts: 3,
      result: { tenant: other.id, members: 1 },
      last_error: null,
    });
    const runs = probe.runs.filter((r) => r.id === id);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(100); // base delay
    expect(runs[2].at - runs[1].at).toBeGreaterThanOrEqual(200); // twice the base
  });

  it('gives up after maxAttempts: failed, with the last error and the progress it made', async () => {
    const id = (await enqueueIn(church, { failures: 99 }))!;
    const failed = await settled(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, done: 1, total: 2, last_error: 'probe failure 3' });
    await sleep(400);
    expect(probe.runs.filter((r) => r.id === id)).toHaveLength(3);
  });

  it('a job asked for in a transaction that rolls back was never asked for', async () => {
    let id: string | null = null;
    await expect(
      inTenant(api, church.id, async () => {
        id = await worker.get(JobsService).enqueue(PROBE, { failures: 0 });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await sleep(300);
    expect(await row(id!)).toBeUndefined();
    expect(probe.runs.filter((r) => r.id === id)).toEqual([]);
  });

  it('a dedupe key makes a second request for the same work a no-op', async () => {
    const key = `probe-${Date.now()}`;
    const ask = () =>
      inTenant(api, church.id, () => worker.get(JobsService).enqueue(PROBE, { failures: 0 }, { dedupeKey: key }));
    const first = await ask();
    const second = await ask();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBeNull();
    expect(await settled(first!)).toMatchObject({ tenant_id: church.id, status: 'done' });
    expect(probe.runs.filter((r) => r.id === first)).toHaveLength(1);
  });

  it('a platform job (asked for outside any church) has no church context to enter', async () => {
    const id = (await worker.get(JobsService).enqueue(PROBE, { failures: 0 }))!;
    expect(await row(id)).toBeUndefined(); // not a church's job
    expect(await settled(id, 'platform_jobs')).toMatchObject({
      tenant_id: null,
      status: 'failed',
      last_error: expect.stringContaining('belongs to no church'),
    });
  });

  it("a church's jobs are invisible to another church (row-level security)", async () => {
    const id = (await enqueueIn(church, { failures: 0 }))!;
    await settled(id);
    const seen = (c: TestTenant) =>
      inTenant(api, c.id, () =>
        TenantContext.current().manager.query<{ id: string }[]>('SELECT id FROM background_jobs WHERE id = $1', [id]),
      );
    expect(await seen(church)).toEqual([{ id }]);
    expect(await seen(other)).toEqual([]);
  });
});
