import { ApiProperty } from '@nestjs/swagger';
import { TAG_COLORS, TagColor } from '../tag.entity';

export class TagResponse {
  @ApiProperty({ example: 'tag_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Youth', maxLength: 50, description: 'Unique in the church, ignoring case.' }) name: string;
  @ApiProperty({ enum: TAG_COLORS, nullable: true, example: 'blue' }) color: TagColor | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

/** How a tag appears inside other records (a member's `tags`). */
export class TagRef {
  @ApiProperty({ example: 'tag_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Youth' }) name: string;
}

/** The member of a `tag.added` / `tag.removed` event. */
export class TaggedMemberRef {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'María' }) first_name: string;
  @ApiProperty({ example: 'González' }) last_name: string;
}

/** `data.object` of `tag.added` and `tag.removed`. */
export class MemberTagEvent {
  @ApiProperty({ type: TagRef }) tag: TagRef;
  @ApiProperty({ type: TaggedMemberRef }) member: TaggedMemberRef;
}
