import { Module } from '@nestjs/common';
import { ReportsGate } from './reports-gate.guard';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** Reports (CONTRACT §13): giving, donors, attendance, growth and groups, as JSON or CSV. */
@Module({
  controllers: [ReportsController],
  providers: [ReportsService, ReportsRepository, ReportsGate],
})
export class ReportsModule {}
