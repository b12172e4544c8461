import { Module } from '@nestjs/common';
import { FundsModule } from '../funds/funds.module';
import { MembersModule } from '../members/members.module';
import { PledgesController } from './pledges.controller';
import { PledgesRepository } from './pledges.repository';
import { PledgesService } from './pledges.service';
import { PledgesChangeSource } from './pledges.changes';

@Module({
  imports: [FundsModule, MembersModule],
  controllers: [PledgesController],
  providers: [PledgesService, PledgesChangeSource, PledgesRepository],
  exports: [PledgesService],
})
export class PledgesModule {}
