import { ErrorCode, statusOf } from './error-codes';

/** One field-level problem inside a 400/422 answer. `issue` is a stable snake_case word. */
export interface FieldIssue {
  field: string;
  issue: string;
  /** Values interpolated into the localized message, e.g. { max: 100 }. */
  params?: Record<string, string | number>;
}

/** Members a problem carries beyond RFC 9457's own (its "extension members"), each documented on Problem. */
export interface ProblemExtensions {
  /** `member_merged`: the survivor's `mem_` id. */
  merged_into?: string;
}

/**
 * The only error type services throw for client-caused failures. The problem filter turns it
 * into RFC 9457 JSON with a localized title/detail; `params` fill the catalog's placeholders.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly errors: FieldIssue[] = [],
    readonly headers: Record<string, string> = {},
    readonly extensions: ProblemExtensions = {},
  ) {
    super(code);
    this.status = statusOf(code);
  }

  static notFound(resource: string): AppError {
    return new AppError('resource_not_found', { resource });
  }

  static validation(errors: FieldIssue[]): AppError {
    return new AppError('validation_failed', {}, errors);
  }

  static invalidParameter(field: string, issue: string, params: Record<string, string | number> = {}): AppError {
    return new AppError('invalid_parameter', { parameter: field }, [{ field, issue, params }]);
  }
}
