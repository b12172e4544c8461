import { ApiProperty } from '@nestjs/swagger';
import { CUSTOM_FIELD_TYPES, CustomFieldType } from '../custom-field.entity';

export class CustomFieldResponse {
  @ApiProperty({ example: 'cfd_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' }) id: string;
  @ApiProperty({ example: 'shirt_size', description: 'The key in a member’s `custom_fields`; unique in the church.' })
  key: string;
  @ApiProperty({ example: 'Shirt size' }) label: string;
  @ApiProperty({ enum: CUSTOM_FIELD_TYPES, example: 'select' }) type: CustomFieldType;
  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['S', 'M', 'L'],
    description: 'The allowed values of a select field; null for other types.',
  })
  options: string[] | null;
  @ApiProperty({ example: false, description: 'Members must have a value (on create and PUT).' }) required: boolean;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-01-05T15:04:05.000Z', format: 'date-time' }) updated_at: string;
}
