import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { AddHouseholdMemberDto } from './dto/add-household-member.dto';
import { CreateHouseholdDto } from './dto/create-household.dto';
import { HouseholdResponse } from './dto/household.response';
import { UpdateHouseholdDto } from './dto/update-household.dto';
import { HOUSEHOLD_LIST } from './households.list';
import { HouseholdsService } from './households.service';

const HouseholdId = new ParseIdPipe('hh', 'household');

/** Households ride on the members scopes (CONTRACT §10). */
@ApiTags('Households')
@Controller('v1/households')
export class HouseholdsController {
  constructor(private readonly households: HouseholdsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Create a household',
    description: 'Members join it through POST /v1/households/{id}/members (or their own `household_id`).',
  })
  @ApiCreatedResponse({
    type: HouseholdResponse,
    headers: { Location: { description: 'URL of the new household', schema: { type: 'string' } } },
  })
  async create(@Body() dto: CreateHouseholdDto, @Res({ passthrough: true }) res: Response): Promise<HouseholdResponse> {
    const household = await this.households.create(dto);
    res.location(`/v1/households/${household.id}`);
    return household;
  }

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({ summary: 'List households', description: 'Keyset-paginated; each household carries its members.' })
  @ApiList(HouseholdResponse, HOUSEHOLD_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.households.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({
    summary: 'Get a household',
    description: 'Carries an ETag; `If-None-Match` answers 304 while unchanged.',
  })
  @ApiOkResponse({ type: HouseholdResponse })
  get(@Param('id', HouseholdId) id: string): Promise<HouseholdResponse> {
    return this.households.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Update a household',
    description: 'Any subset of name, address and primary_contact_id; null clears an optional field.',
  })
  @ApiOkResponse({ type: HouseholdResponse })
  update(@Param('id', HouseholdId) id: string, @Body() dto: UpdateHouseholdDto): Promise<HouseholdResponse> {
    return this.households.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Delete a household',
    description:
      'Soft delete. Its members leave it (their household_id and household_role become null), each raising `member.updated`.',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', HouseholdId) id: string): Promise<void> {
    await this.households.remove(id);
  }

  @Post(':id/members')
  @HttpCode(200)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Put a member in the household',
    description:
      'A member is in at most one household: this moves them out of any other one, in one transaction, and raises `member.updated` for them. Posting a member already there with another role changes the role; with the same role it changes nothing and raises nothing. An unknown `member_id` is 422 `not_found`. Answers the household.',
  })
  @ApiOkResponse({ type: HouseholdResponse })
  addMember(@Param('id', HouseholdId) id: string, @Body() dto: AddHouseholdMemberDto): Promise<HouseholdResponse> {
    return this.households.addMember(id, dto);
  }

  @Delete(':id/members/:member_id')
  @HttpCode(204)
  @Auth({ scopes: ['write:members'] })
  @ApiOperation({
    summary: 'Take a member out of the household',
    description:
      'Their household_id and household_role become null; raises `member.updated`. 404 when the member is not in this household.' +
      ' A member merged into another (POST /v1/members/{id}/merge) names the survivor.',
  })
  @ApiNoContentResponse()
  async removeMember(
    @Param('id', HouseholdId) id: string,
    @Param('member_id', new ParseIdPipe('mem', 'household member')) memberId: string,
  ): Promise<void> {
    await this.households.removeMember(id, memberId);
  }
}
