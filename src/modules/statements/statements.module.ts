import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { StatementRunJob } from './statement-run.job';
import { StatementSettingsController } from './statement-settings.controller';
import { StatementsController } from './statements.controller';
import { StatementsRepository } from './statements.repository';
import { StatementsService } from './statements.service';

/** Year-end statements: the routes, and the `statements` job (its BullMQ consumer, StatementsProcessor, is registered in WorkerModule). */
@Module({
  imports: [MembersModule],
  controllers: [StatementsController, StatementSettingsController],
  providers: [StatementsService, StatementsRepository, StatementRunJob],
})
export class StatementsModule {}
