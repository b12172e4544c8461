import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';

export class ChangeActorResponse {
  @ApiProperty({ enum: ['token', 'oauth_app', 'cli', 'console', 'system', 'processor'], example: 'token' })
  type: 'token' | 'oauth_app' | 'cli' | 'console' | 'system' | 'processor';
  @ApiProperty({ example: 'tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', nullable: true, type: String }) id: string | null;
  @ApiProperty({ example: 'Planning sync', nullable: true, type: String }) name: string | null;
}

/** A field's value, of whatever type the record's GET gives it. */
const ANY_VALUE = {
  nullable: true,
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

export class FieldChange {
  @ApiProperty({ ...ANY_VALUE, example: 'ana.old@example.org', description: 'The value before (null on a create).' })
  from: unknown;
  @ApiProperty({ ...ANY_VALUE, example: 'ana@example.org', description: 'The value after.' })
  to: unknown;
}

@ApiExtraModels(FieldChange)
export class HistoryEntryResponse {
  @ApiProperty({ example: 'chg_4711' }) id: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.123Z', format: 'date-time' }) changed_at: string;
  @ApiProperty({
    enum: ['create', 'update', 'delete', 'merge'],
    example: 'update',
    description: '`merge`: the record was merged into another (merged_into).',
  })
  op: 'create' | 'update' | 'delete' | 'merge';
  @ApiProperty({ type: ChangeActorResponse }) actor: ChangeActorResponse;
  @ApiProperty({ example: 'req_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', nullable: true, type: String }) request_id:
    string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/FieldChange' },
    example: { email: { from: 'ana.old@example.org', to: 'ana@example.org' } },
    description:
      "The fields the change set, as the record's GET names them; a field the record's GET does not show never appears.",
  })
  changes: Record<string, FieldChange>;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'On a merge: the surviving record.' })
  merged_into: string | null;
}

export class HistoryPageResponse {
  @ApiProperty({ type: [HistoryEntryResponse] }) data: HistoryEntryResponse[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as `cursor` for the next (older) page; null at the end.',
  })
  next_cursor: string | null;
  @ApiProperty({ example: 3, description: 'How many changes the record has.' }) total: number;
}
