import { registerDecorator, ValidationArguments } from 'class-validator';

const KEY = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_KEYS = 50;
const MAX_TEXT = 500;

/** custom_fields: at most 50 snake_case keys, each a string (≤ 500), number, boolean or null. */
export function IsCustomFields() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCustomFields',
      target: target.constructor,
      propertyName,
      validator: {
        validate(value: unknown, _args: ValidationArguments) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          return (
            entries.length <= MAX_KEYS &&
            entries.every(
              ([key, v]) =>
                KEY.test(key) &&
                (v === null ||
                  typeof v === 'boolean' ||
                  (typeof v === 'number' && Number.isFinite(v)) ||
                  (typeof v === 'string' && v.length <= MAX_TEXT)),
            )
          );
        },
      },
    });
}
