import { ApiProperty } from '@nestjs/swagger';

export class FundResponse {
  @ApiProperty({ example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Building Fund' }) name: string;
  @ApiProperty({ example: 'The new sanctuary roof.', nullable: true, type: String }) description: string | null;
  @ApiProperty({ example: '4010', nullable: true, type: String, description: "The church's chart-of-accounts code." })
  ledger_code: string | null;
  @ApiProperty({ example: true, description: 'An archived fund (false) takes no new gifts; its history stays.' })
  active: boolean;
  @ApiProperty({ example: true, description: 'Gifts to it appear on year-end statements.' }) tax_deductible: boolean;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}

/** How a fund appears inside other records (a donation's `fund`). */
export class FundRef {
  @ApiProperty({ example: 'fnd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Building Fund' }) name: string;
}
