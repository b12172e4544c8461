import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { CUSTOM_FIELD_LIST } from './custom-fields.list';
import { CustomFieldsService } from './custom-fields.service';
import { CreateCustomFieldDto } from './dto/create-custom-field.dto';
import { CustomFieldResponse } from './dto/custom-field.response';
import { UpdateCustomFieldDto } from './dto/update-custom-field.dto';

const CustomFieldId = new ParseIdPipe('cfd', 'custom field');

/** The church's custom-field definitions: admin:* to change, read:members to read (CONTRACT §10). */
@ApiTags('Custom fields')
@Controller('v1/custom-fields')
export class CustomFieldsController {
  constructor(private readonly fields: CustomFieldsService) {}

  @Post()
  @Idempotent()
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Define a custom field',
    description:
      'Members then carry a value under `custom_fields.<key>`, checked against the type (and the options of a select field); a required field must have one on member create and PUT. A key the church already has is a 409 `conflict`.',
  })
  @ApiCreatedResponse({
    type: CustomFieldResponse,
    headers: { Location: { description: 'URL of the new definition', schema: { type: 'string' } } },
  })
  async create(
    @Body() dto: CreateCustomFieldDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CustomFieldResponse> {
    const field = await this.fields.create(dto);
    res.location(`/v1/custom-fields/${field.id}`);
    return field;
  }

  @Get()
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({ summary: 'List custom fields' })
  @ApiList(CustomFieldResponse, CUSTOM_FIELD_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.fields.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['read:members'] })
  @ApiOperation({ summary: 'Get a custom field' })
  @ApiOkResponse({ type: CustomFieldResponse })
  get(@Param('id', CustomFieldId) id: string): Promise<CustomFieldResponse> {
    return this.fields.get(id);
  }

  @Patch(':id')
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Update a custom field',
    description:
      'The label, the options of a select field and `required`; the key and the type cannot change. Members’ existing values are kept as they are.',
  })
  @ApiOkResponse({ type: CustomFieldResponse })
  update(@Param('id', CustomFieldId) id: string, @Body() dto: UpdateCustomFieldDto): Promise<CustomFieldResponse> {
    return this.fields.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['admin:*'] })
  @ApiOperation({
    summary: 'Delete a custom field',
    description:
      'Its key is taken out of every member at once (no `member.updated` per member; their `updated_at` changes).',
  })
  @ApiNoContentResponse()
  async remove(@Param('id', CustomFieldId) id: string): Promise<void> {
    await this.fields.remove(id);
  }
}
