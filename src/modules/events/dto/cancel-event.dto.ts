import { ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsOptional, IsString, validate } from 'class-validator';
import { AppError } from '../../../common/errors/app-error';
import { MaxLen } from '../../../common/validation/rules';
import { toFieldIssues } from '../../../common/validation/validation-issues';

export class CancelEventDto {
  @ApiPropertyOptional({
    type: String,
    example: 'Hurricane warning: the building is closed.',
    nullable: true,
    maxLength: 1000,
    description: 'Told to the registrants in the cancellation e-mail.',
  })
  @IsOptional()
  @IsString()
  @MaxLen(1000)
  reason?: string | null;
}

/**
 * The body is optional (a POST without one cancels without a reason), which the global
 * ValidationPipe does not allow for a DTO parameter; a body that is there is validated by the same
 * rules, with the same answer (422 naming every field).
 */
export async function readCancelBody(body: unknown): Promise<CancelEventDto> {
  if (body === undefined) return new CancelEventDto();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw AppError.validation([{ field: '(body)', issue: 'invalid_type', params: { type: 'object' } }]);
  const dto = plainToInstance(CancelEventDto, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  if (errors.length) throw AppError.validation(toFieldIssues(errors));
  return dto;
}
