import { Injectable } from '@nestjs/common';
import { RowLock, withLock } from '../../database/row-lock';
import { tenantScope } from '../../database/tenant-scope';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { PaymentProcessorEntity } from './payment-processor.entity';

export type EventOutcome = 'processed' | 'ignored' | 'unmatched' | 'rejected';

export interface ReceivedEvent {
  provider: string;
  eventId: string;
  type: string;
  objectId: string | null;
  payload: unknown;
}

/** The module's only database surface: the church's processor row and its received events, in the current tenant transaction. */
@Injectable()
export class PaymentsRepository {
  constructor(private readonly tenants: TenantsService) {}

  /** The church's key (slug), for its inbound endpoint's URL (read by the tenancy module). */
  tenantSlug(): Promise<string> {
    return this.tenants.currentSlug();
  }

  /** The church's processor; with `lock`, the row stays locked until the transaction ends. */
  findProcessor(lock?: RowLock): Promise<PaymentProcessorEntity | null> {
    const { repo, tenantId } = tenantScope(PaymentProcessorEntity);
    return repo.findOne({ where: { tenantId }, ...withLock(lock) });
  }

  /**
   * Inserts the church's processor unless it has one (unique on tenant_id): false when a concurrent
   * connect got there first (this waits for its commit, then finds its row).
   */
  async insertProcessor(processor: PaymentProcessorEntity): Promise<boolean> {
    const { repo } = tenantScope(PaymentProcessorEntity);
    const result = await repo.createQueryBuilder().insert().values(processor).orIgnore().returning(['id']).execute();
    return (result.raw as unknown[]).length > 0;
  }

  async updateProcessor(id: string, changes: Partial<PaymentProcessorEntity>): Promise<void> {
    const { repo, tenantId } = tenantScope(PaymentProcessorEntity);
    await repo.update({ tenantId, id }, changes);
  }

  async deleteProcessor(id: string): Promise<void> {
    const { repo, tenantId } = tenantScope(PaymentProcessorEntity);
    await repo.delete({ tenantId, id });
  }

  /**
   * Records a processor event as received, once per event id: the id of the new row, or null when
   * the event was recorded before (a replay). Twenty identical events at once: the first insert
   * wins, the others wait for its commit on the unique index and get null.
   */
  async claimEvent(event: ReceivedEvent, id: string): Promise<string | null> {
    const { manager, tenantId } = tenantScope();
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO processor_events (tenant_id, id, provider, event_id, type, object_id, outcome, payload)
       VALUES ($1, $2, $3, $4, $5, $6, 'processed', $7)
       ON CONFLICT (tenant_id, event_id) DO NOTHING RETURNING id`,
      [tenantId, id, event.provider, event.eventId, event.type, event.objectId, JSON.stringify(event.payload)],
    );
    return rows[0]?.id ?? null;
  }

  /** What a claimed event did. */
  async settleEvent(id: string, outcome: EventOutcome, detail: string | null): Promise<void> {
    const { manager, tenantId } = tenantScope();
    await manager.query('UPDATE processor_events SET outcome = $3, detail = $4 WHERE tenant_id = $1 AND id = $2', [
      tenantId,
      id,
      outcome,
      detail,
    ]);
  }

  /** Runs `fn` after a savepoint; when it throws, the transaction goes back to the savepoint (and the error is rethrown). */
  async withSavepoint<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const { manager } = tenantScope();
    await manager.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      await manager.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }
}
