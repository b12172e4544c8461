import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChangeResponse {
  @ApiProperty({ example: 'chg_4711', description: 'The change (its history entry has the same id).' }) id: string;
  @ApiProperty({
    example: 'member',
    description: 'The singular of the collection: member, household, prospect, tag, donation, fund, event, group, …',
  })
  object_type: string;
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) object_id: string;
  @ApiProperty({
    enum: ['upsert', 'delete'],
    example: 'upsert',
    description: 'A create or an update is an upsert; a soft delete, a hard delete and a merge are a delete.',
  })
  op: 'upsert' | 'delete';
  @ApiProperty({ example: '2026-01-05T15:04:05.123Z', format: 'date-time' }) changed_at: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: {
      id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
      first_name: 'Ana',
      last_name: 'Silva',
      email: 'ana@example.org',
    },
    description:
      "An upsert's record as its GET returns it now (labels in the request's language), so that replaying the feed ends on the current state; null for a delete, and for an upsert of a record deleted since (its delete follows).",
  })
  object: Record<string, unknown> | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { email: 'ana.old@example.org' },
    description:
      "The old values of the top-level fields this change modified, as the record's GET names them (absent on a create and a delete; empty for a change of a membership such as a tag or a group roster).",
  })
  previous_attributes?: Record<string, unknown>;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'On the delete of a merged member: the member it was merged into (CONTRACT §17).',
  })
  merged_into: string | null;
}

export class ChangesPageResponse {
  @ApiProperty({ type: [ChangeResponse] }) data: ChangeResponse[];
  @ApiProperty({
    example: 'MS4xMjM0NTYuNzg5',
    description: 'Pass as `since` for the next page, and keep it for the next poll when has_more is false.',
  })
  next_cursor: string;
  @ApiProperty({ example: false, description: 'True: more changes are ready now; follow next_cursor at once.' })
  has_more: boolean;
}

export class ChangesHeadResponse {
  @ApiProperty({
    example: 'MS4xMjM0NTYuMA',
    description:
      'A cursor for "now": list the records, then follow the feed from it (nothing committed after is missed).',
  })
  cursor: string;
}
