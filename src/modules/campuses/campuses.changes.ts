import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { CampusResponse } from './dto/campus.response';
import { CampusesService } from './campuses.service';

/** Campuses in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class CampusesChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly campuses: CampusesService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'campus',
      prefix: ID_PREFIX.campus,
      scope: 'read:campuses',
      response: CampusResponse,
      load: (ids) => this.campuses.getMany(ids),
    });
  }
}
