import { Module } from '@nestjs/common';
import { FundsController } from './funds.controller';
import { FundsRepository } from './funds.repository';
import { FundsService } from './funds.service';
import { FundsChangeSource } from './funds.changes';

@Module({
  controllers: [FundsController],
  providers: [FundsService, FundsChangeSource, FundsRepository],
  exports: [FundsService],
})
export class FundsModule {}
