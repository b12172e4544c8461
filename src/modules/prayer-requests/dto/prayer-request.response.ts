import { ApiProperty } from '@nestjs/swagger';
import { CampusRef } from '../../campuses/dto/campus.response';
import { VISIBILITIES } from '../prayer-request.entity';

/** The member a prayer request is from. */
export class PrayerRequestMember {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'María' }) first_name: string;
  @ApiProperty({ example: 'González' }) last_name: string;
}

export class PrayerRequestResponse {
  @ApiProperty({ example: 'prq_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Please pray for my mother, who has surgery on Friday.' }) request: string;
  @ApiProperty({
    type: PrayerRequestMember,
    nullable: true,
    description: 'Null when the request names no member (or the member was deleted).',
  })
  member: PrayerRequestMember | null;
  @ApiProperty({ example: null, nullable: true, type: String }) name: string | null;
  @ApiProperty({ enum: VISIBILITIES, example: 'staff' }) visibility: string;
  @ApiProperty({ example: false }) urgent: boolean;
  @ApiProperty({ type: CampusRef, nullable: true }) campus: CampusRef | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When it was answered (POST …/answer); null until then.',
  })
  answered_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) answer: string | null;
  @ApiProperty({
    example: 'usr_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    type: String,
    description: 'The staff user whose token created it.',
  })
  created_by: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
