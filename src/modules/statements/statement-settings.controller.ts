import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import { StatementSettingsDto, StatementSettingsResponse } from './dto/statement-settings.dto';
import { StatementsService } from './statements.service';

/** What statements print about the church besides its name, and in which language and time zone (settings: admin:*). */
@ApiTags('Settings')
@Controller('v1/settings/statements')
export class StatementSettingsController {
  constructor(private readonly statements: StatementsService) {}

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Statement settings',
    description: 'Defaults until set: language `es`, time zone `UTC`, no address, tax id or signer.',
  })
  @ApiOkResponse({ type: StatementSettingsResponse })
  get(): Promise<StatementSettingsResponse> {
    return this.statements.settings();
  }

  @Put()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Replace the statement settings',
    description:
      'The language statements are written in (es, en, pt: headings, dates, amounts and the no-goods-or-services sentence), the time zone whose ' +
      'calendar year they cover, and the letterhead: the church’s address and tax id, and the signer’s name and title. An absent field takes its ' +
      'default. Statements already issued keep what they printed; run the year again to re-issue them.',
  })
  @ApiOkResponse({ type: StatementSettingsResponse })
  put(@Body() dto: StatementSettingsDto): Promise<StatementSettingsResponse> {
    return this.statements.saveSettings(dto);
  }
}
