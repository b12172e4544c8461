import { ApiProperty } from '@nestjs/swagger';

export class TokenResponse {
  @ApiProperty({ example: 'tok_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Planning sync' }) name: string;
  @ApiProperty({ enum: ['pat', 'service', 'kiosk', 'oauth'] }) type: string;
  @ApiProperty({ example: ['read:members'], type: [String] }) scopes: string[];
  @ApiProperty({ example: 'chp_…x9Qa', description: 'Prefix and last four characters, for recognising the token.' })
  display: string;
  @ApiProperty({
    example: 'usr_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    nullable: true,
    type: String,
    description: 'Owner (PAT) or null (service, kiosk).',
  })
  user_id: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-04-05T15:04:05.000Z', format: 'date-time', nullable: true, type: String }) expires_at:
    string | null;
  @ApiProperty({ example: null, format: 'date-time', nullable: true, type: String }) last_used_at: string | null;
  @ApiProperty({ example: null, format: 'date-time', nullable: true, type: String }) revoked_at: string | null;
}

export class CreatedTokenResponse extends TokenResponse {
  @ApiProperty({
    example: 'chp_Q2x9f0aB7c1D3e5F7g9H1j3K5m7N9p1R4sT6',
    type: String,
    nullable: true,
    description:
      'The secret value. Shown once: store it now; `null` on an idempotent replay (`Idempotent-Replayed: true`): a secret is never kept for replays.',
  })
  token: string | null;
}
