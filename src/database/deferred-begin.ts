import type { PoolClient, QueryResult } from 'pg';
import { inlineParameters } from './inline-parameters';

export interface DeferredBegin {
  /** Whether an explicit transaction was opened (it then needs a COMMIT or ROLLBACK). */
  readonly begun: boolean;
  /** Puts the connection's own `query` back (before it returns to the pool). */
  restore(): void;
}

type Query = (...args: unknown[]) => unknown;

/**
 * How the connection's statements enter the tenant, saving the round trips of BEGIN and COMMIT:
 *
 * - `begin` (`START TRANSACTION; SELECT set_config(…)`, two statements) goes in the same round
 *   trip as the first query: that query's parameters are inlined as literals (inlineParameters)
 *   and the statements go as one simple-protocol message, which PostgreSQL runs in order and
 *   stops at the first error, so the query never runs outside the tenant. A transaction that
 *   sends no query costs no round trip at all.
 * - With `perStatement` (one `SELECT set_config(…)`, read-only requests), no transaction is
 *   opened: every query goes in one message after `perStatement`, and a message of several
 *   statements is one implicit transaction, which the settings last for. Under READ COMMITTED
 *   each statement of a transaction takes its own snapshot anyway; `perStatement` should set
 *   `transaction_read_only`, so that a write fails instead of committing alone.
 *
 * A query whose text cannot be inlined waits for `begin` to be answered first, and the rest of
 * the work then runs in that transaction. Only the promise form `query(text, values?)` (TypeORM's)
 * is accepted before the transaction opens.
 */
export function deferBegin(connection: PoolClient, begin: string, perStatement?: string): DeferredBegin {
  const original = (connection as unknown as { query: Query }).query;
  const ownProperty = Object.prototype.hasOwnProperty.call(connection, 'query');
  let opened: Promise<unknown> | undefined;
  let begun = false;
  /** In per-statement mode, the last statement sent: the next waits for it (see below). */
  let previous: Promise<unknown> = Promise.resolve();

  const combined = async (client: PoolClient, prefix: string, statements: number, text: string, inlined: string) => {
    const results = (await original.call(client, `${prefix};\n${inlined}`)) as QueryResult[];
    const own = results.slice(statements);
    return own.length === 1 ? own[0] : own;
  };
  const openWith = async (client: PoolClient, text: string, values: unknown[]): Promise<unknown> => {
    const inlined = inlineParameters(text, values);
    if (inlined !== null) return combined(client, begin, 2, text, inlined);
    await original.call(client, begin);
    return original.call(client, text, values);
  };

  const deferred = function (this: PoolClient, ...args: unknown[]): unknown {
    if (opened) {
      // Statements sent while the first is under way wait for it: if it failed, the transaction
      // may never have opened, and nothing may run outside it.
      return opened.then(
        () => original.apply(this, args),
        (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
      );
    }
    const [text, values] = args;
    if (typeof text !== 'string' || args.length > 2 || (values !== undefined && !Array.isArray(values)))
      throw new Error('deferBegin: only query(text, values?) can run before the tenant transaction opens');
    const params = (values as unknown[] | undefined) ?? [];
    if (perStatement) {
      const inlined = inlineParameters(text, params);
      if (inlined !== null) {
        // One statement at a time, as on a transaction's connection (pg queues them anyway).
        const sent = previous.then(() => combined(this, perStatement, 1, text, inlined));
        previous = sent.catch(() => undefined);
        return sent;
      }
    }
    begun = true;
    opened = previous.then(() => openWith(this, text, params));
    return opened;
  };
  (connection as unknown as { query: Query }).query = deferred;
  return {
    get begun() {
      return begun;
    },
    restore() {
      if (ownProperty) (connection as unknown as { query: Query }).query = original;
      else delete (connection as unknown as { query?: Query }).query;
    },
  };
}
