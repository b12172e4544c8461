import { registerDecorator } from 'class-validator';
import { isRealDate } from '../../../common/lists/list-query';

/** A real calendar date, YYYY-MM-DD, from 1900 on (past dates are fine: an overdue follow-up). Reported as invalid_format YYYY-MM-DD. */
export function IsCalendarDate() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isRealDate',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && value >= '1900-01-01' && isRealDate(value),
      },
    });
}
