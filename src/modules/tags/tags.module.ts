import { Module } from '@nestjs/common';
import { TagsController } from './tags.controller';
import { TagsRepository } from './tags.repository';
import { TagsService } from './tags.service';
import { TagsChangeSource } from './tags.changes';

@Module({
  controllers: [TagsController],
  providers: [TagsService, TagsChangeSource, TagsRepository],
  exports: [TagsService],
})
export class TagsModule {}
