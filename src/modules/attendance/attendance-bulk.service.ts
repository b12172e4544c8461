import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError } from '../../common/errors/app-error';
import { toProblem } from '../../common/errors/problem';
import { AttendanceRow, readAttendanceRow } from './attendance-row';
import { AttendanceService } from './attendance.service';
import type { AttendanceBulkRowResult, BulkAttendanceResponse } from './dto/attendance.response';
import { BULK_LIMIT } from './dto/create-attendance.dto';

/**
 * POST /v1/attendance/bulk: each row read alone, the valid ones recorded in one statement (partial
 * success), answered in the bulk result shape of POST /v1/members/bulk.
 */
@Injectable()
export class AttendanceBulkService {
  constructor(private readonly attendance: AttendanceService) {}

  async create(body: unknown): Promise<BulkAttendanceResponse> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw AppError.validation([{ field: '(body)', issue: 'invalid_type', params: { type: 'object' } }]);
    const unknown = Object.keys(body).find((key) => key !== 'attendance');
    if (unknown) throw AppError.validation([{ field: unknown, issue: 'unknown_field' }]);
    const rows = (body as { attendance?: unknown }).attendance;
    if (rows === undefined || rows === null) throw AppError.validation([{ field: 'attendance', issue: 'required' }]);
    if (!Array.isArray(rows))
      throw AppError.validation([{ field: 'attendance', issue: 'invalid_type', params: { type: 'array' } }]);
    if (rows.length > BULK_LIMIT)
      throw new AppError('payload_too_large', { limit: `${BULK_LIMIT} attendance records` });
    if (rows.length === 0) throw AppError.validation([{ field: 'attendance', issue: 'required' }]);

    const valid: { index: number; row: AttendanceRow }[] = [];
    const rejected: { index: number; error: AppError }[] = [];
    rows.forEach((raw, index) => {
      const { row, issues } = readAttendanceRow(raw);
      if (row) valid.push({ index, row });
      else rejected.push({ index, error: AppError.validation(issues) });
    });
    const outcome = await this.attendance.createMany(valid);
    const { lang, requestId } = TenantContext.current();
    const results: AttendanceBulkRowResult[] = [
      ...outcome.created,
      ...[...rejected, ...outcome.rejected].map(({ index, error }) => {
        const problem = toProblem(error, lang, requestId ?? '');
        return { index, error: { code: problem.code, errors: problem.errors ?? [] } };
      }),
    ].sort((a, b) => a.index - b.index);
    return { created: outcome.created.length, failed: results.length - outcome.created.length, results };
  }
}
