import { registerDecorator } from 'class-validator';
import { isRealDate, todayUtc } from '../../../common/lists/list-query';

/** A real calendar date (YYYY-MM-DD), not in the future. */
export function IsPastDate() {
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'isRealDate',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value) && value >= '1900-01-01',
      },
    });
    registerDecorator({
      name: 'isNotFuture',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value <= todayUtc(),
      },
    });
  };
}
