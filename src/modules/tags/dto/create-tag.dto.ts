import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { MaxLen, OneOf } from '../../../common/validation/rules';
import { TAG_COLORS, TAG_NAME_MAX, TagColor } from '../tag.entity';

/** Letters, digits and more, not only blanks; never the shape of a tag id (a name and an id must not be mistaken for each other in `{tag}`). */
const TAG_NAME = /^(?!\s*$)(?!tag_[0-9a-f]{32}$)[\s\S]+$/;

export class CreateTagDto {
  @ApiProperty({
    example: 'Youth',
    maxLength: TAG_NAME_MAX,
    description: 'Unique in the church, ignoring case (409 `conflict`); surrounding blanks are trimmed.',
  })
  @IsDefined()
  @Matches(TAG_NAME, { context: { issue: 'invalid_format', params: { format: 'text' } } })
  @MaxLen(TAG_NAME_MAX)
  // Last: for a value that is no string at all, the type is the issue named.
  @IsString()
  name: string;

  @ApiPropertyOptional({ enum: TAG_COLORS, nullable: true, example: 'blue' })
  @IsOptional()
  @OneOf(TAG_COLORS)
  color?: TagColor | null;
}
