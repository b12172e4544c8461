import { Module } from '@nestjs/common';
import { FundsController } from './funds.controller';
import { FundsRepository } from './funds.repository';
import { FundsService } from './funds.service';

@Module({
  controllers: [FundsController],
  providers: [FundsService, FundsRepository],
  exports: [FundsService],
})
export class FundsModule {}
