import { IsIn, IsInt, Max, Min, ValidationOptions } from 'class-validator';
import { CURRENCY_CODES, MAX_AMOUNT } from './currencies';

const ctx = (issue: string, params: Record<string, string | number>): ValidationOptions => ({
  context: { issue, params },
});

/**
 * A gift amount in a DTO: an integer of minor units from 1 to MAX_AMOUNT. A float (10.5) or a
 * string ("1000") is 422 `invalid_type` (integer); zero, a negative or too large an amount is
 * `out_of_range`.
 */
export function IsAmount(min = 1): PropertyDecorator {
  return (target, key) => {
    // Checked in this order: with stopAtFirstError a string or a float is a type issue, not a range one.
    IsInt(ctx('invalid_type', { type: 'integer' }))(target, key);
    Min(min, ctx('out_of_range', { min, max: MAX_AMOUNT }))(target, key);
    Max(MAX_AMOUNT, ctx('out_of_range', { min, max: MAX_AMOUNT }))(target, key);
  };
}

/** An upper-case ISO 4217 code of the currency table; anything else is 422 `one_of`. */
export function IsCurrency(): PropertyDecorator {
  return IsIn([...CURRENCY_CODES], ctx('one_of', { values: CURRENCY_CODES.join(', ') }));
}
