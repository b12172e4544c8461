import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import { CorsSettingsService } from './cors-settings.service';
import { CorsSettingsDto } from './dto/cors-settings.dto';

@ApiTags('Settings')
@Controller('v1/settings')
export class SettingsController {
  constructor(private readonly cors: CorsSettingsService) {}

  @Get('cors')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({ summary: 'Browser origins allowed to call the API (CORS)' })
  @ApiOkResponse({ type: CorsSettingsDto })
  getCors(): Promise<CorsSettingsDto> {
    return this.cors.get();
  }

  @Put('cors')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Replace the CORS allowlist',
    description: 'Unknown origins are refused (403 `origin_not_allowed`); an empty list refuses every browser.',
  })
  @ApiOkResponse({ type: CorsSettingsDto })
  putCors(@Body() dto: CorsSettingsDto): Promise<CorsSettingsDto> {
    return this.cors.replace(dto);
  }
}
