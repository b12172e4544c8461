import { PartialType } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppError } from '../../../common/errors/app-error';
import { toFieldIssues } from '../../../common/validation/validation-issues';
import { CreateMemberDto } from '../../members/dto/create-member.dto';

/**
 * The optional body of POST /v1/prospects/{id}/convert: member fields (the member write body, every
 * field optional) that override what the prospect holds (first_name, last_name, email, phone, campus).
 */
export class ConvertProspectDto extends PartialType(CreateMemberDto) {}

/**
 * The body is optional (a POST without one converts with the prospect's fields), which the global
 * ValidationPipe does not allow for a DTO parameter; a body that is there is validated by the same
 * rules, with the same answer (422 naming every field).
 */
export async function readConvertBody(body: unknown): Promise<ConvertProspectDto> {
  if (body === undefined) return new ConvertProspectDto();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw AppError.validation([{ field: '(body)', issue: 'invalid_type', params: { type: 'object' } }]);
  const dto = plainToInstance(ConvertProspectDto, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  if (errors.length) throw AppError.validation(toFieldIssues(errors));
  return dto;
}
