import { ApiProperty } from '@nestjs/swagger';

export class CampusResponse {
  @ApiProperty({ example: 'cmp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'north' }) key: string;
  @ApiProperty({ example: 'North Campus' }) name: string;
  @ApiProperty({ example: 'America/Mexico_City', nullable: true, type: String }) timezone: string | null;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

/** How a campus appears inside other records. */
export class CampusRef {
  @ApiProperty({ example: 'cmp_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'north' }) key: string;
  @ApiProperty({ example: 'North Campus' }) name: string;
}
