import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsISO8601, IsString } from 'class-validator';
import { OneOf } from '../../../common/validation/rules';
import { EVENT_TYPES } from '../../../platform/outbox/event-types';
import { FilterDto } from './create-endpoint.dto';

export class EndpointHealthResponse {
  @ApiProperty({
    enum: ['healthy', 'failing', 'disabled'],
    example: 'failing',
    description:
      '`failing` from the third consecutive failed attempt (the church\'s org_admins get one mail, its other endpoints `webhook_endpoint.failing`); `healthy` again after a 2xx (and one "recovered" mail); `disabled` with the endpoint.',
  })
  state: 'healthy' | 'failing' | 'disabled';
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    example: '2026-01-05T15:04:05.000Z',
    description: 'When it entered `failing`; null otherwise.',
  })
  failing_since: string | null;
  @ApiProperty({ example: 3, description: 'Failed attempts since the last 2xx.' }) consecutive_failures: number;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    example: '2026-01-05T14:58:11.000Z',
    description: 'The last 2xx; null before the first.',
  })
  last_success_at: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    example: '2026-01-06T21:04:05.000Z',
    description:
      'While deliveries fail: when the last scheduled retry of the oldest failing delivery falls, the time the endpoint is disabled unless an attempt succeeds first (retries carry up to 10% jitter, so it may come a little later); null otherwise.',
  })
  disable_at: string | null;
}

export class EndpointResponse {
  @ApiProperty({ example: 'whe_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'https://hooks.example.org/church' }) url: string;
  @ApiProperty({ example: 'Giving dashboard', nullable: true, type: String }) description: string | null;
  @ApiProperty({ example: ['donation.created'], type: [String] }) events: string[];
  @ApiProperty({ type: [FilterDto] }) filters: FilterDto[];
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status: string;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'Why it was deactivated.' })
  disabled_reason: string | null;
  @ApiProperty({ type: EndpointHealthResponse }) health: EndpointHealthResponse;
  @ApiProperty({ format: 'date-time', example: '2026-01-05T15:04:05.000Z' }) created_at: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-05T15:04:05.000Z' }) updated_at: string;
}

export class EndpointWithSecretResponse extends EndpointResponse {
  @ApiProperty({
    example: 'whsec_4kQ0hG1c8uV2x9bN7mR3tY6pL5aZ0sD1',
    type: String,
    nullable: true,
    description:
      'The signing secret. Shown once; `null` on an idempotent replay (`Idempotent-Replayed: true`): a secret is never kept for replays.',
  })
  secret: string | null;
}

export class RolledSecretResponse {
  @ApiProperty({
    example: 'whsec_4kQ0hG1c8uV2x9bN7mR3tY6pL5aZ0sD1',
    description: 'The new signing secret. Shown once.',
  })
  secret: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until then the previous secret signs too (one v1= per live secret).',
  })
  previous_secret_expires_at: string;
}

export class ValidationResultResponse {
  @ApiProperty({ example: true }) ok: boolean;
  @ApiProperty({ example: 'https://hooks.example.org/webhooks/ping' }) url: string;
  @ApiProperty({ example: 200, nullable: true, type: Number }) status_code: number | null;
  @ApiProperty({ example: 42 }) duration_ms: number;
  @ApiProperty({ example: null, nullable: true, type: String }) error: string | null;
}

export class TestEventDto {
  @ApiProperty({ example: 'member.created', enum: EVENT_TYPES, description: 'The type of the sample event to send.' })
  @IsDefined()
  @OneOf(EVENT_TYPES)
  type: string;
}

export class TestEventResultResponse {
  @ApiProperty({
    example: 200,
    nullable: true,
    type: Number,
    description: "The receiver's status; null when it did not answer.",
  })
  status_code: number | null;
  @ApiProperty({ example: 42 }) duration_ms: number;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'Null on a 2xx; otherwise `HTTP <status>` or the network error.',
  })
  error: string | null;
}

export class AttemptResponse {
  @ApiProperty({ example: 'whd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) delivery_id: string;
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) event_id: string;
  @ApiProperty({ example: 1, description: '1 for the first try, then one per retry.' }) attempt: number;
  @ApiProperty({ example: 500, nullable: true, type: Number }) status_code: number | null;
  @ApiProperty({ example: 120 }) duration_ms: number;
  @ApiProperty({ example: 'HTTP 500', nullable: true, type: String }) error: string | null;
  @ApiProperty({ example: false }) succeeded: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-05T15:04:05.000Z' }) created_at: string;
}

export class BackfillDto {
  @ApiProperty({ example: 'member.created', enum: EVENT_TYPES }) @IsDefined() @OneOf(EVENT_TYPES) type: string;
  @ApiProperty({ example: '2026-01-01T00:00:00Z', format: 'date-time' })
  @IsDefined()
  @IsString()
  @IsISO8601({ strict: true })
  from: string;
  @ApiProperty({ example: '2026-02-01T00:00:00Z', format: 'date-time' })
  @IsDefined()
  @IsString()
  @IsISO8601({ strict: true })
  to: string;
}

export class EnqueuedResponse {
  @ApiProperty({ example: 12 }) enqueued: number;
}
