import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { PrayerRequestResponse } from './dto/prayer-request.response';
import { PrayerRequestsService } from './prayer-requests.service';

/** Prayer requests (a private one only for those its GET shows it to) in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class PrayerRequestsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly prayerRequests: PrayerRequestsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'prayer_request',
      prefix: ID_PREFIX.prayerRequest,
      scope: 'read:prayer_requests',
      response: PrayerRequestResponse,
      load: (ids) => this.prayerRequests.getMany(ids),
    });
  }
}
