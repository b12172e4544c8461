import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { PushTokensController } from './push-tokens.controller';
import { PushTokensRepository } from './push-tokens.repository';
import { PushTokensService } from './push-tokens.service';

/** The push tokens of members' devices (a sub-resource of members; notifications send to them). */
@Module({
  imports: [MembersModule],
  controllers: [PushTokensController],
  providers: [PushTokensService, PushTokensRepository],
})
export class PushTokensModule {}
