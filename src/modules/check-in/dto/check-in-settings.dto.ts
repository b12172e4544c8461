import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { BANNED_SEQUENCES } from '../security-code';

/** A church's own banned sequences, at most. */
export const MAX_BANNED_SEQUENCES = 200;

/** PUT /v1/settings/check-in: replaces the church's banned sequences; absent is none. */
export class CheckInSettingsDto {
  @ApiPropertyOptional({
    type: 'array',
    items: {
      type: 'string',
      minLength: 2,
      maxLength: 4,
      pattern: '^[BCDFGHJKLMNPRSTXZ2456789bcdfghjklmnprstxz]{2,4}$',
    },
    maxItems: MAX_BANNED_SEQUENCES,
    default: [],
    example: ['GRR', 'pk', 'ZZ', 'PK'],
    description:
      'Letter groups no security code of the church may contain, in any position, besides the built-in ones: up to 200, each 2 to 4 characters of ' +
      'the code alphabet (BCDFGHJKLMNPRSTXZ2456789) in any letter case. Saved upper-cased, a repeat kept once (in the order first given). ' +
      'One the alphabet cannot spell (a vowel, 0, 1, O, I…), shorter than 2 or longer than 4 characters is a 422 naming its position (`banned_sequences[3]`).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_BANNED_SEQUENCES, { context: { issue: 'too_many', params: { max: MAX_BANNED_SEQUENCES } } })
  @IsString({ each: true })
  banned_sequences?: string[] | null;
}

export class CheckInSettingsResponse {
  @ApiProperty({
    type: [String],
    example: ['GRR', 'PK', 'ZZ'],
    description: 'The church’s own banned sequences, upper-cased, in the order set.',
  })
  banned_sequences: string[];

  @ApiProperty({
    type: [String],
    example: BANNED_SEQUENCES.slice(0, 4),
    description: 'The built-in banned sequences every church’s codes avoid (not editable).',
  })
  built_in: string[];
}
