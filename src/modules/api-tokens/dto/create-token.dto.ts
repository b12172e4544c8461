import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { SCOPES } from '../../../platform/auth/scopes';

export class CreateTokenDto {
  @ApiProperty({
    example: 'Planning sync',
    maxLength: 100,
    description: 'What the token is for; shown in the audit log.',
  })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  name: string;

  @ApiProperty({
    example: ['read:members'],
    enum: SCOPES,
    isArray: true,
    description: 'Must be held by your role and by the token you call with.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @OneOf(SCOPES, { each: true })
  scopes: string[];

  @ApiPropertyOptional({
    enum: ['pat', 'service'],
    default: 'pat',
    description: 'service: org_admin only, not tied to a person, 1 year.',
  })
  @IsOptional()
  @OneOf(['pat', 'service'])
  type?: 'pat' | 'service';
}
