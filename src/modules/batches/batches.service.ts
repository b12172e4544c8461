import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { clearedRequiredFields } from '../../common/validation/validation-issues';
import type { RowLock } from '../../database/row-lock';
import { DonationsService } from '../donations/donations.service';
import { BatchEntity } from './batch.entity';
import { BATCH_LIST } from './batches.list';
import { toBatchResponse } from './batches.mapper';
import { BatchesRepository } from './batches.repository';
import type { BatchResponse } from './dto/batch.response';
import type { CreateBatchDto } from './dto/create-batch.dto';
import type { UpdateBatchDto } from './dto/update-batch.dto';

const committed = () => new AppError('conflict', { reason: 'the batch has been committed' });

@Injectable()
export class BatchesService {
  constructor(
    private readonly batches: BatchesRepository,
    private readonly donations: DonationsService,
  ) {}

  async create(dto: CreateBatchDto): Promise<BatchResponse> {
    const description = dto.description.trim();
    if (!description) throw AppError.validation([{ field: 'description', issue: 'required' }]);
    const now = new Date();
    const batch = Object.assign(new BatchEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      description,
      expectedTotal: dto.expected_total ?? null,
      currency: dto.currency,
      status: 'open',
      committedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.batches.insert(batch);
    return toBatchResponse(batch, undefined);
  }

  async get(id: string): Promise<BatchResponse> {
    return this.respond(await this.require(id));
  }

  /** The batches among `ids` as GET returns them, by id (the changes feed's objects): two queries (and their sums). */
  async getMany(ids: string[]): Promise<Map<string, BatchResponse>> {
    const batches = await this.batches.findManyByIds(ids);
    const sums = await this.donations.batchSums(batches.map((b) => b.id));
    return new Map(batches.map((b) => [b.id, toBatchResponse(b, sums.get(b.id))]));
  }

  /** A page of batches with their counts and totals (one query for the page's sums). */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<BatchResponse>> {
    const page = await this.batches.list(parseListQuery(rawQuery, BATCH_LIST));
    const sums = await this.donations.batchSums(page.rows.map((b) => b.id));
    return toEnvelope(page, (b) => toBatchResponse(b, sums.get(b.id)));
  }

  /** An open batch's description and expected total; a committed batch is 409. */
  async update(id: string, dto: UpdateBatchDto): Promise<BatchResponse> {
    const cleared = clearedRequiredFields(dto, ['description']);
    if (cleared.length) throw AppError.validation(cleared);
    const batch = await this.require(id, 'for_no_key_update');
    if (batch.status === 'committed') throw committed();
    const changes: Partial<BatchEntity> = { updatedAt: new Date() };
    if (dto.description !== undefined) {
      changes.description = dto.description.trim();
      if (!changes.description) throw AppError.validation([{ field: 'description', issue: 'required' }]);
    }
    if (dto.expected_total !== undefined) changes.expectedTotal = dto.expected_total;
    await this.batches.update(batch.id, changes);
    return this.respond(Object.assign(batch, changes));
  }

  /**
   * Commits the batch: its pending gifts become `succeeded` and raise their `donation.created`,
   * all in this transaction. The batch row is locked first (FOR NO KEY UPDATE): a gift being added
   * (which holds it FOR SHARE) is waited for and counted; one added after waits for this commit
   * and gets 409. Committing twice is 409; a sum that differs from `expected_total` is 422
   * `batch_total_mismatch` and changes nothing.
   */
  async commit(id: string): Promise<BatchResponse> {
    const batch = await this.require(id, 'for_no_key_update');
    if (batch.status === 'committed')
      throw new AppError('conflict', { reason: 'the batch has already been committed' });
    const sums = (await this.donations.batchSums([batch.id])).get(batch.id) ?? { count: 0, total: 0 };
    if (batch.expectedTotal !== null && batch.expectedTotal !== sums.total) {
      throw new AppError('batch_total_mismatch', {
        expected: batch.expectedTotal,
        total: sums.total,
        currency: batch.currency,
      });
    }
    await this.donations.succeedBatch(batch.id);
    const now = new Date();
    const changes: Partial<BatchEntity> = { status: 'committed', committedAt: now, updatedAt: now };
    await this.batches.update(batch.id, changes);
    return toBatchResponse(Object.assign(batch, changes), sums);
  }

  private async respond(batch: BatchEntity): Promise<BatchResponse> {
    return toBatchResponse(batch, (await this.donations.batchSums([batch.id])).get(batch.id));
  }

  private async require(id: string, lock?: RowLock): Promise<BatchEntity> {
    const batch = await this.batches.findById(id, lock);
    if (!batch) throw AppError.notFound('batch');
    return batch;
  }
}
