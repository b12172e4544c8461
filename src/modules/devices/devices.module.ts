import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { CampusesModule } from '../campuses/campuses.module';
import { DevicesController } from './devices.controller';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';
import { DevicesChangeSource } from './devices.changes';

@Module({
  imports: [CampusesModule, UsersModule],
  controllers: [DevicesController],
  providers: [DevicesService, DevicesChangeSource, DevicesRepository],
  exports: [DevicesService],
})
export class DevicesModule {}
