import { ApiProperty } from '@nestjs/swagger';
import { RUN_STATUSES } from '../statement-run.entity';

/** A statements run (202 of POST /v1/statements, GET /v1/statement-runs/{id}). */
export class StatementRunResponse {
  @ApiProperty({ example: 'stmrun_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 2025 }) year: number;
  @ApiProperty({
    type: [String],
    nullable: true,
    example: null,
    description: 'The donors asked for (mem_ ids); null: every donor of the year.',
  })
  donor_ids: string[] | null;
  @ApiProperty({
    enum: RUN_STATUSES,
    example: 'running',
    description:
      '`queued` until a worker takes it (again after a failed attempt, which is retried with backoff), `running`, then `done`; `failed` once its attempts are spent.',
  })
  status: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 120,
    description: 'Statements to issue; null until the worker has counted the donors.',
  })
  total: number | null;
  @ApiProperty({ example: 45, description: 'Statements issued so far by this run.' }) done: number;
  @ApiProperty({ example: '2026-01-10T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-10T15:04:09.000Z', format: 'date-time' }) updated_at: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    example: null,
    description: 'When the run ended (done or failed).',
  })
  finished_at: string | null;
}
