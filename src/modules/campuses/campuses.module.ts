import { Module } from '@nestjs/common';
import { CampusesController } from './campuses.controller';
import { CampusesRepository } from './campuses.repository';
import { CampusesService } from './campuses.service';

@Module({
  controllers: [CampusesController],
  providers: [CampusesService, CampusesRepository],
  exports: [CampusesService],
})
export class CampusesModule {}
