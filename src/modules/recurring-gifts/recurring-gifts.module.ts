import { Module } from '@nestjs/common';
import { FundsModule } from '../funds/funds.module';
import { MembersModule } from '../members/members.module';
import { RecurringGiftsController } from './recurring-gifts.controller';
import { RecurringGiftsRepository } from './recurring-gifts.repository';
import { RecurringGiftsService } from './recurring-gifts.service';
import { RecurringGiftsChangeSource } from './recurring-gifts.changes';

@Module({
  imports: [FundsModule, MembersModule],
  controllers: [RecurringGiftsController],
  providers: [RecurringGiftsService, RecurringGiftsChangeSource, RecurringGiftsRepository],
  exports: [RecurringGiftsService],
})
export class RecurringGiftsModule {}
