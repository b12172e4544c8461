import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { Auth } from '../../platform/auth/auth.decorator';
import { CAMPUS_LIST } from './campuses.list';
import { CampusesService } from './campuses.service';
import { CampusResponse } from './dto/campus.response';
import { CreateCampusDto } from './dto/create-campus.dto';
import { UpdateCampusDto } from './dto/update-campus.dto';

const CampusId = new ParseIdPipe('cmp', 'campus');

@ApiTags('Campuses')
@Controller('v1/campuses')
export class CampusesController {
  constructor(private readonly campuses: CampusesService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:campuses'] })
  @ApiOperation({ summary: 'Create a campus', description: 'Raises `campus.created`.' })
  @ApiCreatedResponse({ type: CampusResponse })
  async create(@Body() dto: CreateCampusDto, @Res({ passthrough: true }) res: Response): Promise<CampusResponse> {
    const campus = await this.campuses.create(dto);
    res.location(`/v1/campuses/${campus.id}`);
    return campus;
  }

  @Get()
  @Auth({ scopes: ['read:campuses'] })
  @ApiOperation({ summary: 'List campuses' })
  @ApiList(CampusResponse, CAMPUS_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.campuses.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:campuses'] })
  @ApiOperation({ summary: 'Get a campus' })
  @ApiOkResponse({ type: CampusResponse })
  @ApiNotFoundResponse({ description: 'resource_not_found' })
  get(@Param('id', CampusId) id: string): Promise<CampusResponse> {
    return this.campuses.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:campuses'] })
  @ApiOperation({ summary: 'Update a campus' })
  @ApiOkResponse({ type: CampusResponse })
  update(@Param('id', CampusId) id: string, @Body() dto: UpdateCampusDto): Promise<CampusResponse> {
    return this.campuses.update(id, dto);
  }
}
