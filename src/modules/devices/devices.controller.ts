import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParseIdPipe } from '../../common/ids/parse-id.pipe';
import { ApiList } from '../../common/lists/list-envelope';
import { Auth } from '../../platform/auth/auth.decorator';
import type { AuthRequest } from '../../platform/auth/principal';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { DEVICE_LIST } from './devices.list';
import { DevicesService } from './devices.service';
import { CreateDeviceDto } from './dto/create-device.dto';
import { DeviceResponse, DeviceWithKeyResponse } from './dto/device.response';

const DeviceId = new ParseIdPipe('dev', 'device');

@ApiTags('Devices')
@Controller('v1/devices')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Post()
  @Idempotent({ secret: 'key' })
  @Auth({ scopes: ['admin:*'], credentials: true })
  @ApiOperation({
    summary: 'Register a kiosk device',
    description:
      'Returns the kiosk API key once (scopes read:events, read:members, write:attendance; no expiry). Raises `device.registered`.',
  })
  @ApiCreatedResponse({ type: DeviceWithKeyResponse })
  async register(
    @Body() dto: CreateDeviceDto,
    @Req() req: AuthRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceWithKeyResponse> {
    const device = await this.devices.register(dto, req.principal!);
    res.location(`/v1/devices/${device.id}`);
    res.setHeader('Cache-Control', 'no-store');
    return device;
  }

  @Get()
  @Auth({ scopes: ['admin:*'], credentials: true })
  @ApiOperation({ summary: 'List kiosk devices' })
  @ApiList(DeviceResponse, DEVICE_LIST)
  list(@Query() query: Record<string, unknown>) {
    return this.devices.list(query);
  }

  @Get(':id')
  @Auth({ scopes: ['admin:*'], credentials: true })
  @ApiOperation({ summary: 'Get a kiosk device' })
  @ApiOkResponse({ type: DeviceResponse })
  get(@Param('id', DeviceId) id: string): Promise<DeviceResponse> {
    return this.devices.get(id);
  }

  @Post(':id/rotate-key')
  @HttpCode(200)
  @Auth({ scopes: ['admin:*'], credentials: true })
  @ApiOperation({
    summary: "Rotate a kiosk's API key",
    description: 'Returns the new key once; the old key stops working at once.',
  })
  @ApiOkResponse({ type: DeviceWithKeyResponse })
  rotateKey(
    @Param('id', DeviceId) id: string,
    @Req() req: AuthRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceWithKeyResponse> {
    res.setHeader('Cache-Control', 'no-store');
    return this.devices.rotateKey(id, req.principal!);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ scopes: ['admin:*'], credentials: true })
  @ApiOperation({ summary: 'Remove a kiosk device', description: 'Its key is revoked at once.' })
  @ApiNoContentResponse()
  async remove(@Param('id', DeviceId) id: string): Promise<void> {
    await this.devices.remove(id);
  }
}
