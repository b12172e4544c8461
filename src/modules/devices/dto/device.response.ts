import { ApiProperty } from '@nestjs/swagger';
import { CampusRef } from '../../campuses/dto/campus.response';

export class DeviceResponse {
  @ApiProperty({ example: 'dev_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Lobby kiosk 1' }) name: string;
  @ApiProperty({ type: CampusRef, nullable: true }) campus: CampusRef | null;
  @ApiProperty({
    example: 'chk_…x9Qa',
    nullable: true,
    type: String,
    description: 'Prefix and last four characters of the current key.',
  })
  key_display: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

export class DeviceWithKeyResponse extends DeviceResponse {
  @ApiProperty({
    example: 'chk_Q2x9f0aB7c1D3e5F7g9H1j3K5m7N9p1R4sT6',
    type: String,
    nullable: true,
    description:
      'The kiosk API key (scopes read:events, read:members, write:attendance; no expiry). Shown once; `null` on an idempotent replay (`Idempotent-Replayed: true`): a secret is never kept for replays.',
  })
  key: string | null;
}
