import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { MaxLen, OneOf } from '../../../common/validation/rules';
import { EVENT_TYPES } from '../../../platform/outbox/event-types';

export class FilterDto {
  @ApiProperty({ example: 'data.object.amount' }) path: string;
  @ApiProperty({ enum: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] }) op: string;
  @ApiProperty({
    nullable: true,
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } },
    ],
    example: 10000,
    description: 'A string, number, boolean or null; an array of them for `in`.',
  })
  value: unknown;
}

export class CreateEndpointDto {
  @ApiProperty({
    example: 'https://hooks.example.org/church',
    description: 'https, reaching a public address (checked again at each delivery).',
  })
  @IsDefined()
  @IsString()
  @MaxLen(2048)
  url: string;

  @ApiProperty({
    example: ['donation.created', 'member.created'],
    enum: [...EVENT_TYPES, '*'],
    isArray: true,
    description: '`*` for every type.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length + 1)
  @OneOf([...EVENT_TYPES, '*'], { each: true })
  events: string[];

  @ApiPropertyOptional({
    type: [FilterDto],
    example: [{ path: 'data.object.amount', op: 'gte', value: 10000 }],
    description: 'Conditions on the payload, all of which must hold.',
  })
  @IsOptional()
  @IsArray()
  filters?: unknown[];

  @ApiPropertyOptional({ type: String, example: 'Giving dashboard', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLen(500)
  description?: string | null;
}
