import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { escapeLiteral, type Pool, type PoolClient, type QueryConfig, type QueryResult } from 'pg';
import {
  DataSource,
  EntityManager,
  QueryRunner,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Actor, TenantContext } from '../common/context/tenant-context';
import { changeActor } from '../common/context/change-actor';
import { DEFAULT_LANGUAGE, Language } from '../common/i18n/language';
import { APP_ROLE } from './app-role';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import { isUuid } from '../common/ids/id';
import { isConnectionLoss } from '../common/errors/database-errors';
import { deferBegin } from './deferred-begin';

const MIGRATION_LOCK = 7_262_019; // arbitrary advisory-lock key for "migrations running"

/**
 * Switches the open transaction to the RLS role and the tenant (and, if asked, to asynchronous
 * commit). The values are a constant and a checked uuid, so inlining them is safe.
 */
function enterTenant(tenantId: string, settings: Record<string, string> = {}): string {
  const more = Object.entries(settings).map(
    ([name, value]) => `, set_config('${name}', ${escapeLiteral(value)}, true)`,
  );
  return `SELECT set_config('role', '${APP_ROLE}', true), set_config('app.tenant_id', '${tenantId}', true)${more.join('')}`;
}

/** Who the change log names for this transaction's changes (CONTRACT §16), and its request. */
function changeSettings(run: TenantRun): Record<string, string> {
  const settings: Record<string, string> = { 'app.actor': JSON.stringify(changeActor(run.actor)) };
  if (run.requestId) settings['app.request_id'] = run.requestId;
  return settings;
}

/** Tells TypeORM that the runner is inside the transaction we opened ourselves (see runInTenant). */
function markTransactionStarted(runner: QueryRunner): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = true;
  state.transactionDepth = 1;
}

/** Tells TypeORM that the transaction is over without a COMMIT (it never reached the server). */
function markTransactionEnded(runner: QueryRunner): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = false;
  state.transactionDepth = 0;
}

/** What TypeORM throws for a statement on a runner it released, e.g. because its connection failed. */
function isReleasedRunnerError(error: unknown): boolean {
  return error instanceof QueryRunnerAlreadyReleasedError || error instanceof QueryRunnerProviderAlreadyReleasedError;
}

/**
 * Returns the runner's connection to the pool, or, when `broken` is given, closes it so that it is
 * never handed out again (pg-pool notices a dead socket, not one the server has just ended).
 */
function release(runner: QueryRunner, broken?: Error): Promise<void> {
  if (!broken) return runner.release();
  return (runner as unknown as { releasePostgresConnection(error: Error): Promise<void> }).releasePostgresConnection(
    broken,
  );
}

/** The tenant of a request or job that runs outside a transaction, for the short ones it opens (Database.transaction). */
const pendingRun = new AsyncLocalStorage<TenantRun>();

export interface TenantRun {
  tenantId: string;
  actor: Actor;
  lang?: Language;
  requestId?: string;
  /**
   * Reads only: each statement runs in an implicit transaction of its own, with the tenant's
   * settings and `transaction_read_only` (a write fails), saving the round trip of COMMIT. Under
   * READ COMMITTED each statement of a transaction sees its own snapshot anyway; what differs is
   * `now()` and locks, which reads do not rely on.
   */
  readOnly?: boolean;
}

/**
 * Owns the connection. Not connected at construction: the API and worker call `connect()` at boot,
 * the CLI only in commands that need a database (so `openapi:export` works without one).
 */
@Injectable()
export class Database implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private source?: DataSource;
  private url?: string;
  private embedded?: EmbeddedPostgres;
  private readonly preparedOn = new WeakMap<PoolClient, Set<string>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get dataSource(): DataSource {
    if (!this.source?.isInitialized) throw new Error('Database.connect() has not been called');
    return this.source;
  }

  get isEmbedded(): boolean {
    return this.embedded !== undefined;
  }

  async connect(options: { migrate?: boolean } = {}): Promise<void> {
    if (this.source?.isInitialized) return;
    let url = this.config.DATABASE_URL;
    let poolSize = this.config.DB_POOL_SIZE;
    if (!url) {
      this.embedded = await startEmbeddedPostgres(this.config.PGLITE_DATA_DIR);
      url = this.embedded.url;
      poolSize = 1;
      this.logger.log(`DATABASE_URL unset: embedded PostgreSQL (PGlite) at ${this.config.PGLITE_DATA_DIR}`);
    }
    this.url = url;
    if (!this.embedded && (options.migrate ?? this.config.DB_MIGRATE_ON_START)) await this.migrate();
    this.source = new DataSource(
      dataSourceOptions(url, poolSize, {
        statementMs: this.config.DB_STATEMENT_TIMEOUT_MS,
        idleInTransactionMs: this.config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      }),
    );
    await this.source.initialize();
    if (this.embedded && (options.migrate ?? this.config.DB_MIGRATE_ON_START)) await this.migrate();
  }

  /**
   * Applies pending migrations; under an advisory lock on a server so that replicas can boot
   * together, on connections of their own without the app's statement time-out.
   */
  async migrate(): Promise<string[]> {
    if (this.embedded) return (await this.dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
    const source = new DataSource(dataSourceOptions(this.url!, 2));
    await source.initialize();
    const runner = source.createQueryRunner();
    try {
      await runner.connect();
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const applied = await source.runMigrations({ transaction: 'each' });
      if (applied.length) this.logger.log(`Applied migrations: ${applied.map((m) => m.name).join(', ')}`);
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await runner.release();
      await source.destroy();
    }
  }

  /**
   * Runs `fn` for the tenant without a transaction: work that calls the network (a webhook
   * receiver, the payment processor) runs there, holding no connection, and opens short
   * transactions of the same tenant and actor with `transaction()` for its database work.
   */
  runOutsideTransaction<T>(run: TenantRun, fn: () => Promise<T>): Promise<T> {
    return pendingRun.run(run, fn);
  }

  /** A transaction of the tenant that `runOutsideTransaction` names (a programming error elsewhere). */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    const run = pendingRun.getStore();
    if (!run) throw new Error('Database.transaction: only inside runOutsideTransaction');
    return this.runInTenant(run, fn);
  }

  /**
   * Runs `fn` in one transaction as the application role with `app.tenant_id` set, so that
   * row-level security confines every statement to the tenant. Repositories find the manager
   * through TenantContext.
   */
  async runInTenant<T>(run: TenantRun, fn: () => Promise<T>): Promise<T> {
    if (!isUuid(run.tenantId)) throw new Error('runInTenant: tenant id is not a uuid');
    const afterCommit: (() => Promise<void> | void)[] = [];
    const runner = this.dataSource.createQueryRunner();
    const connection = (await runner.connect()) as PoolClient;
    // TypeORM releases the runner as soon as its connection fails, and the statements that follow
    // then only say "already released": keep what failed, to answer with it (a 503, not a 500).
    let lost: Error | undefined;
    const onConnectionError = (error: Error) => (lost ??= error);
    connection.on('error', onConnectionError);
    let broken: Error | undefined;
    let result: T;
    // The transaction opens with the first statement, in its round trip; a read-only run sends
    // each statement with the settings instead, and commits nothing (see deferBegin).
    const settings = changeSettings(run);
    const opening = deferBegin(
      connection,
      `START TRANSACTION; ${enterTenant(run.tenantId, settings)}`,
      run.readOnly ? enterTenant(run.tenantId, { ...settings, transaction_read_only: 'on' }) : undefined,
    );
    try {
      markTransactionStarted(runner);
      result = await TenantContext.run(
        {
          tenantId: run.tenantId,
          manager: runner.manager,
          actor: run.actor,
          lang: run.lang ?? DEFAULT_LANGUAGE,
          requestId: run.requestId,
          afterCommit,
        },
        fn,
      );
      // Nothing was read or written: no transaction was opened, none to commit.
      if (opening.begun) await runner.commitTransaction();
      else markTransactionEnded(runner);
    } catch (error) {
      const failure = lost && isReleasedRunnerError(error) ? lost : error;
      if (isConnectionLoss(failure)) broken = failure as Error;
      // A lost connection is closed, not rolled back (the server rolls back a session that ends). A
      // ROLLBACK that fails must not hide the first error, and its connection is not reused either.
      else if (opening.begun && runner.isTransactionActive && !runner.isReleased)
        await runner.rollbackTransaction().catch((e: Error) => (broken = e));
      else markTransactionEnded(runner);
      throw failure;
    } finally {
      opening.restore();
      connection.removeListener('error', onConnectionError);
      await release(runner, broken ?? lost);
    }
    for (const task of afterCommit) {
      try {
        await task();
      } catch (error) {
        this.logger.warn(`after-commit task failed (the sweeper will catch up): ${String(error)}`);
      }
    }
    return result;
  }

  /**
   * Runs `statements` in one transaction of the tenant, like runInTenant, in ONE round trip (a
   * simple-protocol query string): for hot paths that batch work, such as webhook bookkeeping.
   * Values are inlined (see jsonLiteral), so statements should `EXECUTE` the `prepared` ones:
   * those are prepared once per connection and keep their plan (planning a join under row-level
   * security costs more than running it). Returns each statement's rows.
   *
   * `asyncCommit` answers before the commit reaches the disk (synchronous_commit off): a crash of
   * PostgreSQL may then forget the last fraction of a second of such transactions, never corrupt
   * them. Only for bookkeeping that is safe to redo, such as a delivery attempt.
   *
   * Prepared statements run on their generic plan: the custom plans PostgreSQL tries first (and
   * keeps when the batch is small) cost a planning each time, which is what preparing avoids.
   */
  async runScriptInTenant(
    tenantId: string,
    statements: string[],
    options: { asyncCommit?: boolean; prepared?: Record<string, string> } = {},
  ): Promise<Record<string, unknown>[][]> {
    if (!isUuid(tenantId)) throw new Error('runScriptInTenant: tenant id is not a uuid');
    const client = await this.pool.connect();
    // A checked-out client without an 'error' listener takes the process down when its connection dies.
    let broken: Error | undefined;
    const onConnectionError = (error: Error) => (broken ??= error);
    client.on('error', onConnectionError);
    let known = this.preparedOn.get(client);
    if (!known) this.preparedOn.set(client, (known = new Set()));
    const missing = Object.entries(options.prepared ?? {}).filter(([name]) => !known.has(name));
    const head = [
      'START TRANSACTION',
      enterTenant(tenantId, {
        ...(options.asyncCommit ? { synchronous_commit: 'off' } : {}),
        ...(options.prepared ? { plan_cache_mode: 'force_generic_plan' } : {}),
      }),
      ...missing.map(([name, sql]) => `PREPARE ${name} AS ${sql}`),
    ];
    try {
      const results = (await client.query([...head, ...statements, 'COMMIT'].join(';\n'))) as unknown as QueryResult<
        Record<string, unknown>
      >[];
      for (const [name] of missing) known.add(name);
      return results.slice(head.length, head.length + statements.length).map((r) => r.rows);
    } catch (error) {
      // A failed statement leaves the transaction aborted: roll back (and forget what this script
      // prepared) before the connection is reused.
      if (isConnectionLoss(error)) broken ??= error as Error;
      else await client.query('ROLLBACK; DEALLOCATE ALL').catch((e: Error) => (broken ??= e));
      known.clear();
      throw error;
    } finally {
      client.removeListener('error', onConnectionError);
      client.release(broken);
    }
  }

  /**
   * Readiness: one `SELECT 1` on a pooled connection, failing after `timeoutMs` (waiting for a
   * connection included). A connection that does not answer in time is destroyed, not returned to
   * the pool; nothing else is held.
   */
  async ping(timeoutMs: number): Promise<void> {
    const pool = this.pool;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error(`database did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    const check = pool.connect().then(async (client) => {
      if (timedOut) return client.release();
      // A checked-out client without an 'error' listener takes the process down when its connection dies.
      const onConnectionError = () => undefined;
      client.on('error', onConnectionError);
      try {
        await client.query({ text: 'SELECT 1', query_timeout: timeoutMs } as QueryConfig); // pg reads a per-query query_timeout
        client.release();
      } catch (error) {
        client.release(error as Error);
        throw error;
      } finally {
        client.off('error', onConnectionError);
      }
    });
    check.catch(() => undefined);
    try {
      await Promise.race([check, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The pool's connections now (for /metrics): total open, idle, and callers waiting for one. */
  poolStats(): { total: number; idle: number; waiting: number } {
    if (!this.source?.isInitialized) return { total: 0, idle: 0, waiting: 0 };
    const pool = (this.source.driver as unknown as { master: Pool }).master;
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }

  /** Platform work (tenants, token lookup) on the pool's own role; only the tenancy and auth modules use it. */
  get platform(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * One platform statement's rows, straight on the pool (no query runner): for the token lookup,
   * which every request makes.
   */
  async platformRows<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.pool.query(text, values)).rows as T[];
  }

  private get pool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.source?.isInitialized) await this.source.destroy();
    await this.embedded?.stop();
  }
}
