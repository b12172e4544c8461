import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCOPES } from '../../../platform/auth/scopes';

export class OAuthClientResponse {
  @ApiProperty({ example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({
    example: 'app_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description: 'The OAuth client_id (the same as id).',
  })
  client_id: string;
  @ApiProperty({ example: 'Check-in App' }) name: string;
  @ApiProperty({ enum: ['public', 'confidential'] }) type: 'public' | 'confidential';
  @ApiProperty({ example: ['https://checkin.example.org/oauth/callback'], type: [String] }) redirect_uris: string[];
  @ApiProperty({ example: ['read:members', 'read:events'], enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({
    example: '…x9Qa',
    nullable: true,
    type: String,
    description: 'The last four characters of the secret (confidential clients); null for public clients.',
  })
  client_secret_display: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

export class CreatedOAuthClientResponse extends OAuthClientResponse {
  @ApiPropertyOptional({
    example: 'Hq3t0mX6c3f2b1QyA9z8Lw5Jd4Ke7Ru2Vs1Tp0Nn9Mo',
    type: String,
    nullable: true,
    description:
      'Confidential clients only: the client secret, shown this once and stored only as a SHA-256 hash; `null` on an idempotent replay (`Idempotent-Replayed: true`): a secret is never kept for replays.',
  })
  client_secret?: string | null;
}
