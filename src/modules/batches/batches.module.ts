import { Module } from '@nestjs/common';
import { DonationsModule } from '../donations/donations.module';
import { BatchesController } from './batches.controller';
import { BatchesRepository } from './batches.repository';
import { BatchesService } from './batches.service';
import { BatchesChangeSource } from './batches.changes';

@Module({
  imports: [DonationsModule],
  controllers: [BatchesController],
  providers: [BatchesService, BatchesChangeSource, BatchesRepository],
  exports: [BatchesService],
})
export class BatchesModule {}
