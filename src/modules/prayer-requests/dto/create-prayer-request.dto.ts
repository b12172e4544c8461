import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString } from 'class-validator';
import { MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { VISIBILITIES } from '../prayer-request.entity';

export const REQUEST_MAX = 4000;

/** The prayer request write body. `member_id` or `name`: at least one. */
/** Decorators run bottom-up and the pipe stops at the first failure: the type check is listed last so that it runs first. */
export class CreatePrayerRequestDto {
  @ApiProperty({
    example: 'Please pray for my mother, who has surgery on Friday.',
    minLength: 1,
    maxLength: REQUEST_MAX,
  })
  @IsDefined()
  @MaxLen(REQUEST_MAX)
  @MinLen(1)
  @IsString()
  request: string;

  @ApiPropertyOptional({
    type: String,
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    pattern: '^mem_[0-9a-f]{32}$',
    description:
      'The member the request is from: a live member of the church (otherwise 422 `not_found` on member_id). `member_id` or `name` is required (both missing: `required` on each).' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor (the answer’s `member` shows it).',
  })
  @IsOptional()
  @MaxLen(64)
  @IsString()
  member_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'Ana (visitor)',
    nullable: true,
    maxLength: 200,
    description: 'Who asked, when not a member. `member_id` or `name` is required.',
  })
  @IsOptional()
  @MaxLen(200)
  @MinLen(1)
  @IsString()
  name?: string | null;

  @ApiPropertyOptional({
    enum: VISIBILITIES,
    default: 'staff',
    description:
      '`private`: only the staff user who created it and org_admins see it (anyone else gets 404); `staff`: every staff token with read:prayer_requests; `public`: may be shared beyond the staff.',
  })
  @IsOptional()
  @OneOf(VISIBILITIES)
  visibility?: (typeof VISIBILITIES)[number];

  @ApiPropertyOptional({ default: false, example: true })
  @IsOptional()
  @IsBoolean()
  urgent?: boolean;

  @ApiPropertyOptional({ type: String, example: 'north', nullable: true, description: 'Campus key or cmp_ id.' })
  @IsOptional()
  @MaxLen(64)
  @IsString()
  campus?: string | null;
}
