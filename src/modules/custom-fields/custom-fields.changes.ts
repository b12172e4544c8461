import { Injectable, OnModuleInit } from '@nestjs/common';
import { ID_PREFIX } from '../../common/ids/id';
import { ChangeSources } from '../../platform/changes/change-sources';
import { CustomFieldResponse } from './dto/custom-field.response';
import { CustomFieldsService } from './custom-fields.service';

/** Custom field definitions in the changes feed (CONTRACT §15–§16). */
@Injectable()
export class CustomFieldsChangeSource implements OnModuleInit {
  constructor(
    private readonly sources: ChangeSources,
    private readonly customFields: CustomFieldsService,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      type: 'custom_field',
      prefix: ID_PREFIX.customField,
      scope: 'read:members',
      response: CustomFieldResponse,
      load: (ids) => this.customFields.getMany(ids),
    });
  }
}
