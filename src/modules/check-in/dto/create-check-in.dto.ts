import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { MaxLen } from '../../../common/validation/rules';

/** People checked in by one call: a household visit. */
export const MAX_CHECK_IN_MEMBERS = 20;

/** POST /v1/check-ins */
export class CreateCheckInDto {
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'A scheduled event of the church.' })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  event_id: string;

  @ApiProperty({
    type: [String],
    example: ['mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e60'],
    minItems: 1,
    maxItems: MAX_CHECK_IN_MEMBERS,
    description:
      'The people checked in together (mem_ ids of the church; a repeated id counts once). They share one security code.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor (its label; naming both counts once).',
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, { context: { issue: 'required' } })
  @ArrayMaxSize(MAX_CHECK_IN_MEMBERS, { context: { issue: 'too_many', params: { max: MAX_CHECK_IN_MEMBERS } } })
  @IsString({ each: true })
  @MaxLength(64, { each: true, context: { issue: 'too_long', params: { max: 64 } } })
  member_ids: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'dev_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The kiosk device (dev_ id of the church). Absent: the device of the calling kiosk key, if it has one.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(64)
  device_id?: string | null;
}
