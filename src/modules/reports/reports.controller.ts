import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../../platform/auth/auth.decorator';
import {
  AttendanceReportResponse,
  DonorsReportResponse,
  GivingReportResponse,
  GroupsReportResponse,
  GrowthReportResponse,
} from './dto/report.response';
import { answerReport, negotiate } from './report-negotiation';
import type { AttendanceGroup, GivingGroup } from './report-params';
import { CSV_COLUMNS } from './report-csv';
import { ReportsGate } from './reports-gate.guard';
import {
  AttendanceReportDocs,
  DonorsReportDocs,
  GivingReportDocs,
  GroupsReportDocs,
  GrowthReportDocs,
} from './reports.openapi';
import { ReportsService } from './reports.service';

/** Reports (CONTRACT §13): `read:reports`, 30 requests a minute per token; REPORTS_CONCURRENCY computed at once per process. */
@ApiTags('Reports')
@ApiExtraModels(
  GivingReportResponse,
  DonorsReportResponse,
  AttendanceReportResponse,
  GrowthReportResponse,
  GroupsReportResponse,
)
@Controller('v1/reports')
@UseGuards(ReportsGate)
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('giving')
  @Auth({ scopes: ['read:reports'], quota: 'reports' })
  @GivingReportDocs()
  async giving(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const format = negotiate(req, res);
    const report = await this.reports.giving(query);
    return answerReport(req, res, report, format, CSV_COLUMNS.giving[report.params.group_by as GivingGroup]);
  }

  @Get('giving/donors')
  @Auth({ scopes: ['read:reports'], quota: 'reports' })
  @DonorsReportDocs()
  async donors(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const format = negotiate(req, res);
    const report = await this.reports.donors(query);
    return answerReport(req, res, report, format, CSV_COLUMNS.donors);
  }

  @Get('attendance')
  @Auth({ scopes: ['read:reports'], quota: 'reports' })
  @AttendanceReportDocs()
  async attendance(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const format = negotiate(req, res);
    const report = await this.reports.attendance(query);
    return answerReport(req, res, report, format, CSV_COLUMNS.attendance[report.params.group_by as AttendanceGroup]);
  }

  @Get('growth')
  @Auth({ scopes: ['read:reports'], quota: 'reports' })
  @GrowthReportDocs()
  async growth(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const format = negotiate(req, res);
    const report = await this.reports.growth(query);
    return answerReport(req, res, report, format, CSV_COLUMNS.growth);
  }

  @Get('groups')
  @Auth({ scopes: ['read:reports'], quota: 'reports' })
  @GroupsReportDocs()
  async groups(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const format = negotiate(req, res);
    const report = await this.reports.groups(query);
    return answerReport(req, res, report, format, CSV_COLUMNS.groups);
  }
}
