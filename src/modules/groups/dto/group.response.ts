import { ApiProperty } from '@nestjs/swagger';
import { CampusRef } from '../../campuses/dto/campus.response';
import { GROUP_STATUSES, MEETING_DAYS } from '../group.entity';

export class GroupResponse {
  @ApiProperty({ example: 'grp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Células Norte — jóvenes' }) name: string;
  @ApiProperty({ example: 'Young adults meeting at the Ortiz home.', nullable: true, type: String }) description:
    string | null;
  @ApiProperty({ type: CampusRef, nullable: true }) campus: CampusRef | null;
  @ApiProperty({ enum: MEETING_DAYS, nullable: true, example: 'thursday' }) meeting_day: string | null;
  @ApiProperty({ example: '19:30', nullable: true, type: String, description: 'HH:MM, 24-hour.' }) meeting_time:
    string | null;
  @ApiProperty({ example: 'Calle 10 #45, Guadalajara', nullable: true, type: String }) location: string | null;
  @ApiProperty({
    example: 12,
    nullable: true,
    type: 'integer',
    description: 'Most members the group takes; null: no limit.',
  })
  capacity: number | null;
  @ApiProperty({ enum: GROUP_STATUSES, example: 'open' }) status: string;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'The group this one multiplied from (grp_ id); null for a group made by POST /v1/groups.',
  })
  parent_group_id: string | null;
  @ApiProperty({
    example: 9,
    type: 'integer',
    description: 'Members in the group now (deleted members are not counted).',
  })
  member_count: number;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When the group was closed; null while it is not.',
  })
  closed_at: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

/** The `data.object` of `group.multiplied`: the group that multiplied (after the move) and the new group. */
export class GroupMultipliedEvent {
  @ApiProperty({
    type: GroupResponse,
    description: 'The group that multiplied, as GET returns it after the members left.',
  })
  group: GroupResponse;
  @ApiProperty({ type: GroupResponse, description: 'The new group (parent_group_id is `group.id`).' })
  new_group: GroupResponse;
}
