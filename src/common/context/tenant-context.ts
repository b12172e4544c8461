import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import type { Language } from '../i18n/language';

/**
 * Who acts: the token behind a request, or a staff/CLI/worker actor, or the church's payment
 * processor (its signed events). `staff`: a staff member signed in on a page (OAuth consent).
 */
export interface Actor {
  tokenId?: string;
  tokenName?: string;
  userId?: string | null;
  /** For `token`: an OAuth access token acts for its app. */
  tokenType?: 'pat' | 'service' | 'kiosk' | 'oauth';
  /** For `cli` and `staff`: whom the change log and audit name (a command, an e-mail). */
  name?: string;
  kind: 'token' | 'cli' | 'worker' | 'processor' | 'staff';
}

/** The unit of work of one request or job: the tenant, its transaction, who acts, in which language. */
export interface TenantScope {
  tenantId: string;
  manager: EntityManager;
  actor: Actor;
  lang: Language;
  requestId?: string;
  /** Work to run once the transaction has committed (e.g. enqueue deliveries); errors are logged, not thrown. */
  afterCommit: (() => Promise<void> | void)[];
}

const storage = new AsyncLocalStorage<TenantScope>();

export const TenantContext = {
  run<T>(scope: TenantScope, fn: () => Promise<T>): Promise<T> {
    return storage.run(scope, fn);
  },

  /** The current scope; throws outside a tenant transaction (a programming error, not a client one). */
  current(): TenantScope {
    const scope = storage.getStore();
    if (!scope) throw new Error('No tenant scope: database work must run inside Database.runInTenant');
    return scope;
  },

  peek(): TenantScope | undefined {
    return storage.getStore();
  },
};

const onceKeys = new WeakMap<TenantScope, Set<string>>();

/** Registers `task` to run after the current transaction commits, once per `key` per transaction. */
export function afterCommitOnce(key: string, task: () => Promise<void> | void): void {
  const scope = TenantContext.current();
  let keys = onceKeys.get(scope);
  if (!keys) onceKeys.set(scope, (keys = new Set()));
  if (keys.has(key)) return;
  keys.add(key);
  scope.afterCommit.push(task);
}
