import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { Format, MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { CUSTOM_FIELD_KEY, CUSTOM_FIELD_TYPES, CustomFieldType } from '../custom-field.entity';

export const MAX_OPTIONS = 100;

export class CreateCustomFieldDto {
  @ApiProperty({
    example: 'shirt_size',
    maxLength: 40,
    description:
      'Slug: lowercase letters, digits and underscores, starting with a letter. Unique in the church (409 `conflict`).',
  })
  @IsDefined()
  @Format(CUSTOM_FIELD_KEY, 'slug')
  // Last: for a value that is no string at all, the type is the issue named.
  @IsString()
  key: string;

  @ApiProperty({ example: 'Shirt size', maxLength: 100 })
  @IsDefined()
  @MinLen(1)
  @MaxLen(100)
  @IsString()
  label: string;

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES, example: 'select' })
  @IsDefined()
  @OneOf(CUSTOM_FIELD_TYPES)
  type: CustomFieldType;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_OPTIONS,
    example: ['S', 'M', 'L'],
    description:
      'Required (at least one, each ≤ 100 characters, no repeats) for a select field; refused for the other types.',
  })
  @IsOptional()
  @MaxLength(100, { each: true, context: { issue: 'too_long', params: { max: 100 } } })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_OPTIONS)
  @IsArray()
  options?: string[] | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Members must then have a value, on create and PUT (PATCH may leave it out).',
  })
  @IsOptional()
  @IsBoolean()
  required?: boolean;
}
