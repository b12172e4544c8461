import { ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsOptional, validate } from 'class-validator';
import { AppError } from '../../../common/errors/app-error';
import { OneOf } from '../../../common/validation/rules';
import { toFieldIssues } from '../../../common/validation/validation-issues';
import { GROUP_ROLES, type GroupRole } from '../group-member.entity';

export class PutGroupMemberDto {
  @ApiPropertyOptional({
    enum: GROUP_ROLES,
    example: 'leader',
    description: 'Omitted: a member joining gets `member`; one already in the group keeps their role.',
  })
  @IsOptional()
  @OneOf(GROUP_ROLES)
  group_role?: GroupRole;
}

/**
 * The body is optional (a PUT without one puts the member in as `member`), which the global
 * ValidationPipe does not allow for a DTO parameter; a body that is there is validated by the same
 * rules, with the same answer (422 naming every field).
 */
export async function readPutGroupMemberBody(body: unknown): Promise<PutGroupMemberDto> {
  if (body === undefined) return new PutGroupMemberDto();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw AppError.validation([{ field: '(body)', issue: 'invalid_type', params: { type: 'object' } }]);
  const dto = plainToInstance(PutGroupMemberDto, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  if (errors.length) throw AppError.validation(toFieldIssues(errors));
  return dto;
}
