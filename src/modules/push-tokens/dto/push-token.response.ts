import { ApiProperty } from '@nestjs/swagger';
import { PUSH_PLATFORMS } from './register-push-token.dto';

/** A member's push token, never shown back in full. */
export class PushTokenResponse {
  @ApiProperty({ example: 'ptk_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) member_id: string;
  @ApiProperty({ enum: PUSH_PLATFORMS, example: 'android' }) platform: string;
  @ApiProperty({
    example: 'i7j8k9l0',
    description: 'The last 8 characters of the token (the whole value is never listed back).',
  })
  token_last8: string;
  @ApiProperty({ example: '2026-09-01T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({
    example: '2026-09-01T15:04:05.000Z',
    format: 'date-time',
    description: 'Last registered (a device registers its token again at each start).',
  })
  updated_at: string;
}

export class PushTokenList {
  @ApiProperty({ type: [PushTokenResponse] }) data: PushTokenResponse[];
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Always null: a member has at most 20 tokens, all in one page.',
  })
  next_cursor: null;
  @ApiProperty({ example: 1 }) total: number;
}
