import { Module } from '@nestjs/common';
import { CustomFieldsController } from './custom-fields.controller';
import { CustomFieldsRepository } from './custom-fields.repository';
import { CustomFieldsService } from './custom-fields.service';
import { CustomFieldsChangeSource } from './custom-fields.changes';

@Module({
  controllers: [CustomFieldsController],
  providers: [CustomFieldsService, CustomFieldsChangeSource, CustomFieldsRepository],
  exports: [CustomFieldsService],
})
export class CustomFieldsModule {}
