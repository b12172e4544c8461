import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { BATCH_LIST } from './batches.list';
import { BatchesService } from './batches.service';
import { BatchResponse } from './dto/batch.response';
import { CreateBatchDto } from './dto/create-batch.dto';
import { UpdateBatchDto } from './dto/update-batch.dto';

const BatchId = new ParseIdPipe('bat', 'batch');

/** Batches ride on the donations scopes (CONTRACT §9b). */
@ApiTags('Batches')
@Controller('v1/batches')
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Open a batch',
    description:
      "Gifts entered together (a service's envelopes), in one currency. Gifts recorded with `batch_id` are `pending` and raise no event until POST /v1/batches/{id}/commit. " +
      '`count` and `total` add up its gifts (minor units).',
  })
  @ApiCreatedResponse({
    type: BatchResponse,
    headers: { Location: { description: 'URL of the new batch', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateBatchDto, @Res({ passthrough: true }) res: Response): Promise<BatchResponse> {
    const batch = await this.batches.create(dto);
    res.location(`/v1/batches/${batch.id}`);
    return batch;
  }

  @Get()
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'List batches',
    description:
      'Keyset-paginated, with each batch’s `count` and `total`; `status=open` for the batches still being entered.',
  })
  @ApiList(BatchResponse, BATCH_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.batches.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'Get a batch',
    description: 'With `count` and `total`; its gifts are GET /v1/donations?batch_id={id}. Carries an ETag.',
  })
  @ApiOkResponse({ type: BatchResponse })
  get(@Param('id', BatchId) id: string): Promise<BatchResponse> {
    return this.batches.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Update a batch',
    description:
      'The description and `expected_total` of an open batch (null clears the expected total); a committed batch is 409 `conflict`.',
  })
  @ApiOkResponse({ type: BatchResponse })
  update(@Param('id', BatchId) id: string, @Body() dto: UpdateBatchDto): Promise<BatchResponse> {
    return this.batches.update(id, dto);
  }

  @Post(':id/commit')
  @HttpCode(200)
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Commit a batch',
    description:
      'Makes every pending gift of the batch `succeeded` and raises their `donation.created` events, in one transaction. ' +
      'A batch whose gifts do not add up to its `expected_total` is 422 `batch_total_mismatch` (nothing changes); committing twice, or adding a gift to a committed batch, is 409 `conflict`. ' +
      'A gift being added while the commit runs is either counted in it or refused with 409, never left pending.',
  })
  @ApiOkResponse({ type: BatchResponse })
  commit(@Param('id', BatchId) id: string): Promise<BatchResponse> {
    return this.batches.commit(id);
  }
}
