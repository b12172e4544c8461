import { PartialType } from '@nestjs/swagger';
import { CreatePrayerRequestDto } from './create-prayer-request.dto';

/** Any subset of the write body; the answer is set by POST /v1/prayer-requests/{id}/answer only. */
export class UpdatePrayerRequestDto extends PartialType(CreatePrayerRequestDto) {}
