import { Module } from '@nestjs/common';
import { ChangesController } from './changes.controller';
import { ChangesRepository } from './changes.repository';
import { ChangesService } from './changes.service';
import { HistoryController } from './history.controller';

/** The changes feed and the records' histories (CONTRACT §15–§16), over the change log. */
@Module({
  controllers: [ChangesController, HistoryController],
  providers: [ChangesService, ChangesRepository],
})
export class ChangesModule {}
