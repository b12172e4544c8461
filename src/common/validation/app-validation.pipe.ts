import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { toFieldIssues } from './validation-issues';

class ValidationErrors extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation');
  }
}

/**
 * The global ValidationPipe (whitelist, forbidNonWhitelisted, transform). A bad body is a 422
 * `validation_failed`; a bad query string is a 400 `invalid_parameter`; both list every field.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationErrors(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && !isPrimitive(metadata.metatype);
    if (metadata.type === 'body' && isDto && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw AppError.validation([{ field: '(body)', issue: 'invalid_type', params: { type: 'object' } }]);
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ValidationErrors)) throw error;
      const issues = toFieldIssues(error.errors);
      if (metadata.type === 'body') throw AppError.validation(issues);
      throw new AppError('invalid_parameter', { parameter: issues.map((i) => i.field).join(', ') }, issues);
    }
  }
}

function isPrimitive(type: unknown): boolean {
  return [String, Boolean, Number, Array, Object].includes(type as never);
}
