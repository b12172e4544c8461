import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Database } from '../../database/database.service';
import { Public } from '../auth/auth.decorator';

@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(private readonly db: Database) {}

  @Get('healthz')
  @Public({ addressLimit: false }) // liveness probes
  @ApiOperation({ summary: 'Liveness and database reachability' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { status: { type: 'string', example: 'ok' }, database: { type: 'string', example: 'ok' } },
    },
  })
  async health(): Promise<{ status: string; database: string }> {
    await this.db.platform.query('SELECT 1');
    return { status: 'ok', database: this.db.isEmbedded ? 'embedded' : 'ok' };
  }
}
