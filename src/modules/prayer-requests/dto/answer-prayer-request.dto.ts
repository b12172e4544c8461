import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { MaxLen, MinLen } from '../../../common/validation/rules';
import { REQUEST_MAX } from './create-prayer-request.dto';

export class AnswerPrayerRequestDto {
  @ApiProperty({ example: 'The surgery went well; she is home and recovering.', minLength: 1, maxLength: REQUEST_MAX })
  @IsDefined()
  @MaxLen(REQUEST_MAX)
  @MinLen(1)
  @IsString()
  answer: string;
}
