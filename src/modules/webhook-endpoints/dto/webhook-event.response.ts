import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';

export class WebhookEventResponse {
  @ApiProperty({ example: 'evt_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'member.created' }) type: string;
  @ApiProperty({ example: 1767225600, description: 'Unix time in seconds.' }) created: number;
  @ApiProperty({ example: 'grace' }) tenant: string;
  @ApiProperty({ example: '2026-01-01' }) api_version: string;
  @ApiProperty({
    example: { object: { id: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' } },
    type: 'object',
    additionalProperties: true,
  })
  data: { object: unknown };
}

export class ResendDto {
  @ApiProperty({ example: 'whe_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) @IsDefined() @IsString() endpoint_id: string;
}

export class ResentResponse {
  @ApiProperty({ example: 'whd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) delivery_id: string;
}
