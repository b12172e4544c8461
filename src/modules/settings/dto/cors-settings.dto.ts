import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsString, Matches } from 'class-validator';

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;

export class CorsSettingsDto {
  @ApiProperty({
    example: ['https://app.example.org'],
    description:
      'Browser origins (scheme://host[:port]) allowed to call the API for this church. Empty: browsers are refused.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(ORIGIN, {
    each: true,
    context: { issue: 'invalid_format', params: { format: 'scheme://host[:port], lowercase, no path' } },
  })
  allowed_origins: string[];
}
