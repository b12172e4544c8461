import { Module } from '@nestjs/common';
import { CampusesController } from './campuses.controller';
import { CampusesRepository } from './campuses.repository';
import { CampusesService } from './campuses.service';
import { CampusesChangeSource } from './campuses.changes';

@Module({
  controllers: [CampusesController],
  providers: [CampusesService, CampusesChangeSource, CampusesRepository],
  exports: [CampusesService],
})
export class CampusesModule {}
