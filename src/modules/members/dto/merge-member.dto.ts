import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MaxLen, OneOf } from '../../../common/validation/rules';

/** Which member's value a merged field takes. */
export const MERGE_SIDES = ['survivor', 'duplicate'] as const;
export type MergeSide = (typeof MERGE_SIDES)[number];

/** The member fields a merge fills (every field of the member write body). */
export const MERGE_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'birthdate',
  'gender',
  'status',
  'campus',
  'active',
  'household_id',
  'address',
  'custom_fields',
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

const side = (what: string) => ({
  enum: MERGE_SIDES,
  description: `Whose ${what} the survivor keeps.`,
});

/**
 * Per field, whose value the survivor keeps: `duplicate` takes the duplicate's (unless it has none),
 * `survivor` keeps the survivor's even when empty. A field left out keeps the survivor's value and
 * is filled from the duplicate only when the survivor has none. Any other key is a 422
 * (`prefer.<key>`, unknown_field).
 */
export class MergePreferDto implements Partial<Record<MergeField, MergeSide>> {
  @ApiPropertyOptional(side('first name')) @IsOptional() @OneOf(MERGE_SIDES) first_name?: MergeSide;
  @ApiPropertyOptional(side('last name')) @IsOptional() @OneOf(MERGE_SIDES) last_name?: MergeSide;
  @ApiPropertyOptional(side('e-mail')) @IsOptional() @OneOf(MERGE_SIDES) email?: MergeSide;
  @ApiPropertyOptional(side('phone')) @IsOptional() @OneOf(MERGE_SIDES) phone?: MergeSide;
  @ApiPropertyOptional(side('birthdate')) @IsOptional() @OneOf(MERGE_SIDES) birthdate?: MergeSide;
  @ApiPropertyOptional(side('gender')) @IsOptional() @OneOf(MERGE_SIDES) gender?: MergeSide;
  @ApiPropertyOptional(side('status')) @IsOptional() @OneOf(MERGE_SIDES) status?: MergeSide;
  @ApiPropertyOptional(side('campus')) @IsOptional() @OneOf(MERGE_SIDES) campus?: MergeSide;
  @ApiPropertyOptional(side('`active`')) @IsOptional() @OneOf(MERGE_SIDES) active?: MergeSide;
  @ApiPropertyOptional(side('household (and role in it)')) @IsOptional() @OneOf(MERGE_SIDES) household_id?: MergeSide;
  @ApiPropertyOptional(side('address (the whole object)')) @IsOptional() @OneOf(MERGE_SIDES) address?: MergeSide;
  @ApiPropertyOptional({
    enum: MERGE_SIDES,
    description:
      'Custom fields go key by key: by default the survivor keeps its values and takes the duplicate’s for the keys it has no value for; `duplicate` lets the duplicate’s values win key by key; `survivor` keeps the survivor’s as they are.',
  })
  @IsOptional()
  @OneOf(MERGE_SIDES)
  custom_fields?: MergeSide;
}

/** POST /v1/members/{id}/merge: `{id}` survives, `duplicate_id` is merged into it. */
export class MergeMemberDto {
  @ApiProperty({
    example: 'mem_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
    description:
      'The member merged into this one (mem_ id), then deleted. The same member, a deleted or already merged one, or another church’s, is 422 `merge_invalid`.',
  })
  @IsDefined()
  @IsString()
  @MaxLen(64)
  duplicate_id: string;

  @ApiPropertyOptional({
    type: MergePreferDto,
    example: { email: 'duplicate', phone: 'survivor' },
    description:
      'Whose value each field keeps. By default the survivor keeps its own and takes the duplicate’s where it has none.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => MergePreferDto)
  prefer?: MergePreferDto;
}
