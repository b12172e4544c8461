import { ApiProperty } from '@nestjs/swagger';
import { CHANNELS, NOTIFICATION_STATUSES } from '../notification.entity';

export class ChannelCountsResponse {
  @ApiProperty({ example: 40, description: 'Recipients it was sent to (push: to at least one of their devices).' })
  sent: number;
  @ApiProperty({ example: 2, description: 'Recipients without an address for the channel (no e-mail; no push token).' })
  skipped: number;
  @ApiProperty({
    example: 0,
    description:
      'Recipients the SMTP server or the push gateway refused (push: every device), or whose send was cut by a worker that died.',
  })
  failed: number;
}

export class CountsResponse {
  @ApiProperty({ type: ChannelCountsResponse }) email: ChannelCountsResponse;
  @ApiProperty({ type: ChannelCountsResponse }) push: ChannelCountsResponse;
}

export class NotificationResponse {
  @ApiProperty({ example: 'ntf_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'Youth night moved to Friday' }) title: string;
  @ApiProperty({ example: 'This week we meet on Friday at 7 pm in the main hall. Bring a friend!' }) body: string;
  @ApiProperty({ type: [String], enum: CHANNELS, example: ['email', 'push'] }) channels: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { tag: 'tag_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
    description:
      'As posted, with public ids: `{member_ids}`, `{tag}` (tag_ id), `{group_id}`, `{campus}` (cmp_ id) or `{event_id}`.',
  })
  audience: Record<string, string | string[]>;
  @ApiProperty({
    enum: NOTIFICATION_STATUSES,
    example: 'sending',
    description:
      '`queued` until its time comes and a worker takes it, `sending` while the worker fans out, then `sent`; `canceled` when canceled while queued.',
  })
  status: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null }) scheduled_at: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 42,
    description:
      'The number of members in the audience, fixed when the worker resolves it (at send time); null until then.',
  })
  recipients: number | null;
  @ApiProperty({ type: CountsResponse, description: 'Progress per channel, updated after each batch of recipients.' })
  counts: CountsResponse;
  @ApiProperty({ example: '2026-09-01T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-09-01T15:04:09.000Z', format: 'date-time' }) updated_at: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When the last recipient was done.',
  })
  sent_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null }) canceled_at: string | null;
}
