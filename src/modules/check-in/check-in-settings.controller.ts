import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../platform/auth/auth.decorator';
import { CheckInService } from './check-in.service';
import { CheckInSettingsDto, CheckInSettingsResponse } from './dto/check-in-settings.dto';

/** What kiosk security codes avoid besides the built-in list (CONTRACT §11, "the church's banned list"; settings: admin:*). */
@ApiTags('Settings')
@Controller('v1/settings/check-in')
export class CheckInSettingsController {
  constructor(private readonly checkIns: CheckInService) {}

  @Get()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Check-in settings',
    description:
      'The church’s banned list for kiosk security codes (CONTRACT §11): `banned_sequences`, the church’s own letter groups (none until set), and ' +
      '`built_in`, the ones every church’s codes avoid. A code issued by POST /v1/check-ins contains none of either, in any position.',
  })
  @ApiOkResponse({ type: CheckInSettingsResponse })
  get(): Promise<CheckInSettingsResponse> {
    return this.checkIns.settings();
  }

  @Put()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Replace the check-in settings',
    description:
      'Replaces the church’s own banned sequences (absent or null: none), e.g. `{"banned_sequences": ["GRR", "pk", "ZZ"]}` answers ' +
      '`{"banned_sequences": ["GRR", "PK", "ZZ"], "built_in": [...]}`. Up to 200 sequences of 2 to 4 characters of the code alphabet ' +
      '(BCDFGHJKLMNPRSTXZ2456789), any letter case, saved upper-cased with repeats kept once. A sequence the alphabet cannot spell is a 422 ' +
      '`validation_failed` naming its position (`banned_sequences[3]`, `invalid_format`; `too_short`/`too_long` outside 2–4 characters; ' +
      '`too_many` on `banned_sequences` past 200). Check-ins from then on draw codes without them; codes already issued are kept.',
  })
  @ApiOkResponse({ type: CheckInSettingsResponse })
  put(@Body() dto: CheckInSettingsDto): Promise<CheckInSettingsResponse> {
    return this.checkIns.saveSettings(dto);
  }
}
