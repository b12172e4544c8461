import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { DeviceResponse } from './dto/device.response';
import { DevicesService } from './devices.service';

/** Kiosk devices in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class DevicesChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly devices: DevicesService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'device',
      prefix: ID_PREFIX.device,
      scope: 'admin:*',
      credentials: true,
      response: DeviceResponse,
      load: (ids) => this.devices.getMany(ids),
    });
  }
}
