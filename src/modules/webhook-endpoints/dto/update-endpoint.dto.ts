import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { OneOf } from '../../../common/validation/rules';
import { CreateEndpointDto } from './create-endpoint.dto';

export class UpdateEndpointDto extends PartialType(CreateEndpointDto) {
  @ApiPropertyOptional({
    enum: ['enabled', 'disabled'],
    description: '`enabled` re-enables an endpoint that was deactivated.',
  })
  @IsOptional()
  @OneOf(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';
}
