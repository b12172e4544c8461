import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { TenantContext } from '../../common/context/tenant-context';
import { matches, setCachingHeaders, versionEtag } from '../../common/http/conditional-get';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CreateStatementRunDto } from './dto/create-statement-run.dto';
import { StatementRunResponse } from './dto/statement-run.response';
import { StatementResponse } from './dto/statement.response';
import { STATEMENT_LIST } from './statements.list';
import { StatementsService } from './statements.service';

const RunId = new ParseIdPipe('stmrun', 'statement run');

const WHAT_IS_COUNTED =
  'A statement lists the year’s gifts to funds with `tax_deductible: true` whose status is succeeded, partially_refunded or refunded, each at its net ' +
  '(amount less refunds: the same expression as pledges and reports); pending, disputed and failed gifts count nothing. Totals are per currency, ' +
  'never mixed, printed with the currency’s digits. The year runs from January 1 to December 31 in the time zone of `/v1/settings/statements`, ' +
  'which also sets the language (es, en, pt), the church’s address and tax id, and who signs.';

/** Year-end contribution statements (CONTRACT §12); they ride on the donations scopes. */
@ApiTags('Statements')
@Controller('v1')
export class StatementsController {
  constructor(private readonly statements: StatementsService) {}

  @Post('statements')
  @HttpCode(202)
  @Idempotent()
  @Auth({ scopes: ['write:donations'] })
  @ApiOperation({
    summary: 'Issue the year’s contribution statements (a background run)',
    description:
      'Starts a run and answers 202 with it (`Location: /v1/statement-runs/{id}`); the worker issues one PDF per donor, or one per household when ' +
      'members of a household gave (a joint statement), and the run’s `status`, `total` and `done` show its progress. A run that stops (a failure is ' +
      'retried with backoff; a worker that dies leaves it to another) resumes without issuing anything twice. There is one statement per donor (or ' +
      'household) and year: a later run of the same year re-issues it in place (same `stm_` id, new `updated_at`). `donor_ids` limits the run to ' +
      'these donors (422 `not_found` for an unknown one); a future year is 422. ' +
      WHAT_IS_COUNTED,
  })
  @ApiAcceptedResponse({
    description: 'The run, queued for the worker.',
    type: StatementRunResponse,
    headers: {
      Location: {
        description: 'URL of the run',
        schema: { type: 'string', example: '/v1/statement-runs/stmrun_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' },
      },
    },
  })
  async start(
    @Body() dto: CreateStatementRunDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StatementRunResponse> {
    const run = await this.statements.startRun(dto);
    res.location(`/v1/statement-runs/${run.id}`);
    return run;
  }

  @Get('statement-runs/:id')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'Get a statements run',
    description: 'Poll it: `status` queued → running → done (or failed), `done` of `total` statements issued.',
  })
  @ApiParam({ name: 'id', description: 'The run (stmrun_ id).', example: 'stmrun_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f' })
  @ApiOkResponse({ type: StatementRunResponse })
  getRun(@Param('id', RunId) id: string): Promise<StatementRunResponse> {
    return this.statements.getRun(id);
  }

  @Get('statements')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'List statements',
    description:
      'Keyset-paginated; `year=2025&donor_id=mem_…` finds a donor’s statement of a year (their own, or their household’s joint one). ' +
      WHAT_IS_COUNTED,
  })
  @ApiList(StatementResponse, STATEMENT_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.statements.list(query);
  }

  @Get('statements/:id.pdf')
  @Auth({ scopes: ['read:donations'] })
  @ApiOperation({
    summary: 'Download a statement (PDF)',
    description:
      'The PDF as issued (stored when the run issued it; a later run of the year replaces it): the church’s letterhead, the donor, a table of the ' +
      'gifts (date, fund, amount, refunded, deductible), totals per currency, the sentence that no goods or services were provided in return, and a ' +
      'signature line, in the language of the statement settings. Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiParam({
    name: 'id',
    description: 'The statement (stm_ id), followed by `.pdf` in the path.',
    example: 'stm_0192f0c1a2b37c4d8e9f0a1b2c3d4e5f',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The statement',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  async pdf(
    @Param('id', new ParseIdPipe('stm', 'statement')) id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile | undefined> {
    const statement = await this.statements.pdf(id);
    const tag = versionEtag(TenantContext.current().tenantId, id, statement.updatedAt.toISOString());
    res.setHeader('ETag', tag);
    setCachingHeaders(res);
    if (matches(req.headers['if-none-match'], tag)) {
      res.status(304);
      return undefined;
    }
    return new StreamableFile(statement.pdf, {
      type: 'application/pdf',
      length: statement.pdf.length,
      disposition: `inline; filename="statement-${statement.year}-${toPublicId(ID_PREFIX.statement, id)}.pdf"`,
    });
  }
}
