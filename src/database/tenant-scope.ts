import { EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { TenantContext } from '../common/context/tenant-context';

/** What an update or delete of a repository may be given: TypeORM's criteria. */
type Criteria<Entity extends ObjectLiteral> = Parameters<Repository<Entity>['delete']>[0];

/** Whether `criteria` name the church `tenantId`: `{ tenantId, … }`, or a non-empty list of such. */
export function namesChurch(criteria: unknown, tenantId: string): boolean {
  const each = Array.isArray(criteria) ? criteria : [criteria];
  return (
    each.length > 0 &&
    each.every((c) => typeof c === 'object' && c !== null && (c as { tenantId?: unknown }).tenantId === tenantId)
  );
}

/**
 * A TypeORM repository in the current transaction whose writes by criteria (update, delete,
 * softDelete, restore, increment, decrement) refuse criteria without the church's tenant_id (they
 * would reach every church's rows but for row-level security), and whose writes of a whole table
 * (updateAll, deleteAll, clear) are refused outright. A refusal rejects before any SQL is sent.
 */
export class TenantRepository<Entity extends ObjectLiteral> extends Repository<Entity> {
  constructor(
    private readonly tenantId: string,
    target: EntityTarget<Entity>,
    manager: EntityManager,
  ) {
    super(target, manager, manager.queryRunner);
  }

  override async update(...args: Parameters<Repository<Entity>['update']>): ReturnType<Repository<Entity>['update']> {
    this.guard('update', args[0]);
    return super.update(...args);
  }

  override async delete(criteria: Criteria<Entity>): ReturnType<Repository<Entity>['delete']> {
    this.guard('delete', criteria);
    return super.delete(criteria);
  }

  override async softDelete(criteria: Criteria<Entity>): ReturnType<Repository<Entity>['softDelete']> {
    this.guard('softDelete', criteria);
    return super.softDelete(criteria);
  }

  override async restore(criteria: Criteria<Entity>): ReturnType<Repository<Entity>['restore']> {
    this.guard('restore', criteria);
    return super.restore(criteria);
  }

  override async increment(
    ...args: Parameters<Repository<Entity>['increment']>
  ): ReturnType<Repository<Entity>['increment']> {
    this.guard('increment', args[0]);
    return super.increment(...args);
  }

  override async decrement(
    ...args: Parameters<Repository<Entity>['decrement']>
  ): ReturnType<Repository<Entity>['decrement']> {
    this.guard('decrement', args[0]);
    return super.decrement(...args);
  }

  override updateAll(
    ..._args: Parameters<Repository<Entity>['updateAll']>
  ): ReturnType<Repository<Entity>['updateAll']> {
    return Promise.reject(this.refusal('updateAll', "every church's rows"));
  }

  override deleteAll(): ReturnType<Repository<Entity>['deleteAll']> {
    return Promise.reject(this.refusal('deleteAll', "every church's rows"));
  }

  override clear(..._args: Parameters<Repository<Entity>['clear']>): Promise<void> {
    return Promise.reject(this.refusal('clear', "every church's rows"));
  }

  /** Throws (a programming error, a 500) unless the criteria name the church. */
  private guard(operation: string, criteria: unknown): void {
    if (!namesChurch(criteria, this.tenantId))
      throw this.refusal(operation, 'its criteria do not name the church (tenant_id)');
  }

  private refusal(operation: string, why: string): Error {
    return new Error(`refused: ${operation} of ${this.metadata.tableName}: ${why}`);
  }
}

/** The current transaction's manager and church. */
export interface DataScope {
  manager: EntityManager;
  tenantId: string;
}

/** The same, with the guarded repository of one entity. */
export interface EntityScope<Entity extends ObjectLiteral> extends DataScope {
  repo: TenantRepository<Entity>;
}

/**
 * The one way a repository reaches the database: the manager of the current tenant transaction
 * (TenantContext; throws outside one), the church's id to name in every query (defence in depth
 * beside row-level security), and, given an entity, its repository in that transaction, which
 * refuses an update or delete whose criteria lack the church's tenant_id.
 */
export function tenantScope(): DataScope;
export function tenantScope<Entity extends ObjectLiteral>(entity: EntityTarget<Entity>): EntityScope<Entity>;
export function tenantScope<Entity extends ObjectLiteral>(
  entity?: EntityTarget<Entity>,
): DataScope | EntityScope<Entity> {
  const { manager, tenantId } = TenantContext.current();
  return entity ? { manager, tenantId, repo: new TenantRepository(tenantId, entity, manager) } : { manager, tenantId };
}
