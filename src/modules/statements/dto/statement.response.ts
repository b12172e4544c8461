import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../../common/money/currencies';

export class StatementDonorRef {
  @ApiProperty({ example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Lucía' }) first_name: string;
  @ApiProperty({ example: 'Ramírez' }) last_name: string;
}

export class StatementHouseholdRef {
  @ApiProperty({ example: 'hh_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Familia Ramírez' }) name: string;
}

/** One currency's sums on a statement, in minor units. */
export class StatementTotalResponse {
  @ApiProperty({ enum: CURRENCY_CODES, example: 'MXN' }) currency: string;
  @ApiProperty({ example: 170000, description: 'The gifts (minor units).' }) amount: number;
  @ApiProperty({ example: 20000, description: 'Refunded of those gifts.' }) refunded: number;
  @ApiProperty({ example: 150000, description: 'What the statement certifies: amount less refunds.' }) net: number;
}

export class StatementResponse {
  @ApiProperty({ example: 'stm_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 2025 }) year: number;
  @ApiProperty({ example: 'stmrun_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f', description: 'The run that issued it last.' })
  run_id: string;
  @ApiProperty({
    example: 'Lucía Ramírez',
    description: 'The name printed on it: the donor’s, or the household’s on a joint statement.',
  })
  recipient_name: string;
  @ApiProperty({
    type: StatementHouseholdRef,
    nullable: true,
    description: 'The household of a joint statement; null on a single donor’s.',
  })
  household: StatementHouseholdRef | null;
  @ApiProperty({
    type: [StatementDonorRef],
    description: 'The donors whose gifts it lists (one, or the household members who gave).',
  })
  donors: StatementDonorRef[];
  @ApiProperty({ type: [StatementTotalResponse], description: 'Per currency, never mixed.' })
  totals: StatementTotalResponse[];
  @ApiProperty({ example: 12, description: 'Gifts listed.' }) gift_count: number;
  @ApiProperty({
    example: '/v1/statements/stm_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f.pdf',
    description: 'The PDF (application/pdf).',
  })
  pdf_url: string;
  @ApiProperty({ example: '2026-01-10T15:04:05.000Z', format: 'date-time', description: 'First issued.' })
  created_at: string;
  @ApiProperty({
    example: '2026-01-10T15:04:05.000Z',
    format: 'date-time',
    description: 'Last issued (a later run of the year re-issues it).',
  })
  updated_at: string;
}
