import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { toProblem } from '../../common/errors/problem';
import { toFieldIssues } from '../../common/validation/validation-issues';
import { BULK_LIMIT } from './dto/bulk-create-members.dto';
import { CreateMemberDto } from './dto/create-member.dto';
import { isValidMemberRow } from './dto/member-row.schema';
import type { BulkCreateMembersResponse, BulkRowResult } from './dto/member.response';
import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import { MembersService } from './members.service';

/**
 * POST /v1/members/bulk: each row validated alone (a compiled schema first, class-validator for the
 * details of a refused row); valid rows created in one statement (partial success).
 */
@Injectable()
export class MembersBulkService {
  constructor(private readonly members: MembersService) {}

  async create(body: Record<string, unknown>): Promise<BulkCreateMembersResponse> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw AppError.validation([{ field: '(body)', issue: 'invalid_type', params: { type: 'object' } }]);
    const unknown = Object.keys(body).find((key) => key !== 'members');
    if (unknown) throw AppError.validation([{ field: unknown, issue: 'unknown_field' }]);
    const rows = body.members;
    if (rows === undefined || rows === null) throw AppError.validation([{ field: 'members', issue: 'required' }]);
    if (!Array.isArray(rows))
      throw AppError.validation([{ field: 'members', issue: 'invalid_type', params: { type: 'array' } }]);
    if (rows.length > BULK_LIMIT) throw new AppError('payload_too_large', { limit: `${BULK_LIMIT} members` });
    if (rows.length === 0) throw AppError.validation([{ field: 'members', issue: 'required' }]);
    const valid: { index: number; dto: CreateMemberDto }[] = [];
    const rejected: { index: number; errors: FieldIssue[] }[] = [];
    await Promise.all(
      rows.map(async (row, index) => {
        if (typeof row !== 'object' || row === null || Array.isArray(row)) {
          rejected.push({ index, errors: [{ field: '(row)', issue: 'invalid_type', params: { type: 'object' } }] });
          return;
        }
        if (isValidMemberRow(row)) {
          valid.push({ index, dto: row as unknown as CreateMemberDto });
          return;
        }
        const dto = plainToInstance(CreateMemberDto, row);
        const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
        if (errors.length) rejected.push({ index, errors: toFieldIssues(errors) });
        else valid.push({ index, dto });
      }),
    );
    const outcome = await this.members.createMany(valid.sort((a, b) => a.index - b.index));
    const { lang, requestId } = TenantContext.current();
    const results: BulkRowResult[] = [
      ...outcome.created.map(({ index, id }) => ({ index, id: toPublicId(ID_PREFIX.member, id) })),
      ...[...rejected, ...outcome.rejected].map(({ index, errors }) => {
        const problem = toProblem(AppError.validation(errors), lang, requestId ?? '');
        return { index, error: { code: problem.code, errors: problem.errors ?? [] } };
      }),
    ].sort((a, b) => a.index - b.index);
    return { created: outcome.created.length, failed: results.length - outcome.created.length, results };
  }
}
