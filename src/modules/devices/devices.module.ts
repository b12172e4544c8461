import { Module } from '@nestjs/common';
import { UsersModule } from '../../platform/users/users.module';
import { CampusesModule } from '../campuses/campuses.module';
import { DevicesController } from './devices.controller';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';

@Module({
  imports: [CampusesModule, UsersModule],
  controllers: [DevicesController],
  providers: [DevicesService, DevicesRepository],
})
export class DevicesModule {}
