import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One person's label (a child's sticker, or any person checked in). */
export class CheckInLabel {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) member_id: string;
  @ApiProperty({ example: 'Sofía' }) first_name: string;
  @ApiProperty({ example: 'López' }) last_name: string;
  @ApiProperty({ example: 'K7XD' }) security_code: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Peanuts',
    description:
      'Present only when the church defines a custom field with the key `allergies`: the member’s value (null when the member has none).',
  })
  allergies?: string | null;
}

/** The label the parent keeps: the code that checks the household out, and who it covers. */
export class ParentLabel {
  @ApiProperty({ example: 'K7XD' }) security_code: string;
  @ApiProperty({
    type: [String],
    example: ['Sofía López', 'Mateo López'],
    description: 'The people of the visit, "first last".',
  })
  names: string[];
}

/** The answer of POST /v1/check-ins. */
export class CheckInResponse {
  @ApiProperty({ example: 'cki_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) event_id: string;
  @ApiProperty({
    example: 'K7XD',
    description:
      '4 characters from BCDFGHJKLMNPRSTXZ2456789 (no vowels, no 0/O/1/I), unique in the church for the day, never a word of the banned list.',
  })
  security_code: string;
  @ApiProperty({ type: [CheckInLabel] }) labels: CheckInLabel[];
  @ApiProperty({ type: ParentLabel }) parent_label: ParentLabel;
  @ApiProperty({ type: String, nullable: true, example: 'dev_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) device_id:
    string | null;
  @ApiProperty({ example: '2026-03-01T15:04:05.000Z', format: 'date-time' }) checked_in_at: string;
}

/** The answer of POST /v1/check-ins/{id}/checkout. */
export class CheckoutResponse {
  @ApiProperty({ example: 'cki_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) event_id: string;
  @ApiProperty({ type: [String], example: ['mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f'] }) member_ids: string[];
  @ApiProperty({ example: '2026-03-01T15:04:05.000Z', format: 'date-time' }) checked_in_at: string;
  @ApiProperty({ example: '2026-03-01T16:30:00.000Z', format: 'date-time' }) checked_out_at: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'dev_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The kiosk device that checked out, if any.',
  })
  checked_out_device_id: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The token that checked out.',
  })
  checked_out_token_id: string | null;
}

export class SearchMember {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Sofía' }) first_name: string;
  @ApiProperty({ example: 'López' }) last_name: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 7,
    description: 'Whole years today; null without a birthdate.',
  })
  age: number | null;
  @ApiProperty({ example: false, description: 'Already has attendance at the event.' }) checked_in: boolean;
}

export class SearchHousehold {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'null for a matching person who belongs to no household (listed alone).',
  })
  id: string | null;
  @ApiProperty({ example: 'López family' }) name: string;
  @ApiProperty({ type: [SearchMember] }) members: SearchMember[];
}

export class CheckInSearchResponse {
  @ApiProperty({ type: [SearchHousehold] }) data: SearchHousehold[];
}
