import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { MaxLen, MinLen, OneOf } from '../../../common/validation/rules';
import { SCOPES } from '../../../platform/auth/scopes';
import { MAX_REDIRECT_URIS } from '../redirect-uris';

export class CreateOAuthClientDto {
  @ApiProperty({
    example: 'Check-in App',
    maxLength: 100,
    description:
      'Shown on the consent page, in the authorized-apps list and in the audit log (as the name of its access tokens).',
  })
  @IsDefined()
  @IsString()
  @MinLen(1)
  @MaxLen(100)
  name: string;

  @ApiProperty({
    example: ['https://checkin.example.org/oauth/callback', 'http://127.0.0.1:8765/callback'],
    type: [String],
    maxItems: MAX_REDIRECT_URIS,
    description: `Matched exactly. https, or http on 127.0.0.1, [::1] or localhost (native apps); no fragment; up to ${MAX_REDIRECT_URIS}.`,
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REDIRECT_URIS, { context: { issue: 'too_many', params: { max: MAX_REDIRECT_URIS } } })
  @IsString({ each: true })
  redirect_uris: string[];

  @ApiPropertyOptional({
    enum: ['public', 'confidential'],
    default: 'public',
    description:
      '`public` (a mobile, desktop or browser app: PKCE only, no secret) or `confidential` (a server: also a client secret, shown once).',
  })
  @IsOptional()
  @OneOf(['public', 'confidential'])
  type?: 'public' | 'confidential';

  @ApiPropertyOptional({
    example: ['read:members', 'read:events', 'write:attendance'],
    enum: SCOPES,
    isArray: true,
    description:
      'The most this client may ever be granted (its ceiling); a grant is also capped by the consenting user’s role. Default: every scope but admin:*.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @OneOf(SCOPES, { each: true })
  scopes?: string[];
}
