import { PartialType, PickType } from '@nestjs/swagger';
import { CreateBatchDto } from './create-batch.dto';

/** PATCH of an open batch: its description and expected total (a committed batch is 409). */
export class UpdateBatchDto extends PartialType(PickType(CreateBatchDto, ['description', 'expected_total'] as const)) {}
