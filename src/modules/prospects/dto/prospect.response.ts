import { ApiProperty } from '@nestjs/swagger';
import { CampusRef } from '../../campuses/dto/campus.response';
import { PROSPECT_SOURCES, PROSPECT_STAGES } from '../prospect.entity';

export class ProspectResponse {
  @ApiProperty({ example: 'prs_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Lucía' }) first_name: string;
  @ApiProperty({ example: 'Ramírez' }) last_name: string;
  @ApiProperty({ example: 'lucia@example.org', nullable: true, type: String }) email: string | null;
  @ApiProperty({ example: '+5213398765432', nullable: true, type: String }) phone: string | null;
  @ApiProperty({ type: CampusRef, nullable: true }) campus: CampusRef | null;
  @ApiProperty({ enum: PROSPECT_SOURCES, nullable: true, example: 'visit' }) source: string | null;
  @ApiProperty({ enum: PROSPECT_STAGES, example: 'contacted' }) stage: string;
  @ApiProperty({
    example: 'usr_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    type: String,
    description: 'The staff user who follows the prospect up.',
  })
  assigned_to: string | null;
  @ApiProperty({ example: '2026-02-01', nullable: true, type: String, format: 'date' }) follow_up_on: string | null;
  @ApiProperty({ example: 'Interested in the youth group.', nullable: true, type: String }) notes: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When the prospect was converted; null until then.',
  })
  converted_at: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'The member (mem_ id) the prospect became; null until converted.',
  })
  member_id: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
