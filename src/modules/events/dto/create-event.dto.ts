import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Format, MaxLen, MinLen } from '../../../common/validation/rules';
import { EVENT_TIME } from '../zoned-time';

export const MAX_CAPACITY = 1_000_000;
/** Named in `invalid_format` messages; a technical name, the same in every language. */
const TIME_FORMAT = 'ISO 8601';

/** The event write body (POST). PATCH takes any subset (UpdateEventDto). */
export class CreateEventDto {
  @ApiProperty({ example: 'Christmas Eve service', maxLength: 200 })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(200)
  name: string;

  @ApiProperty({
    example: '2026-12-24T19:00:00-06:00',
    description:
      'ISO 8601. With an offset or `Z` it is that instant; without one (`2026-12-24T19:00`) it is the local time in `timezone`. Answered in UTC.',
  })
  @IsDefined()
  @IsString()
  @Format(EVENT_TIME, TIME_FORMAT)
  starts_at: string;

  @ApiProperty({
    example: '2026-12-24T20:30:00-06:00',
    description: 'After `starts_at`; read as `starts_at` is. Answered in UTC.',
  })
  @IsDefined()
  @IsString()
  @Format(EVENT_TIME, TIME_FORMAT)
  ends_at: string;

  @ApiPropertyOptional({
    type: String,
    example: 'America/Mexico_City',
    nullable: true,
    description: "IANA time zone name. Default (absent or null): the campus's time zone, else UTC.",
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  timezone?: string | null;

  @ApiPropertyOptional({ type: String, example: 'north', nullable: true, description: 'Campus key or cmp_ id.' })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  campus?: string | null;

  @ApiPropertyOptional({ type: String, example: 'Main sanctuary', nullable: true, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLen(500)
  location?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'Carols, candles and the Christmas story. Childcare for under-5s.',
    nullable: true,
    maxLength: 4000,
  })
  @IsOptional()
  @IsString()
  @MaxLen(4000)
  description?: string | null;

  @ApiPropertyOptional({
    type: Number,
    example: 120,
    nullable: true,
    minimum: 0,
    maximum: MAX_CAPACITY,
    description: 'Seats for registrations; null (the default) is unlimited.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CAPACITY)
  capacity?: number | null;

  @ApiPropertyOptional({
    example: true,
    default: true,
    description: 'Whether registrations are taken (false: 409 `conflict`).',
  })
  @IsOptional()
  @IsBoolean()
  registration_open?: boolean;
}
