import Ajv from 'ajv';
import { isEmail } from 'class-validator';
import { isRealDate, todayUtc } from '../../../common/lists/list-query';
import { DATE_ONLY, E164 } from '../../../common/validation/rules';
import { GENDERS, MEMBER_STATUSES } from '../member.entity';

const text = (max: number) => ({ type: ['string', 'null'], maxLength: max });

/**
 * CreateMemberDto as a compiled JSON schema: the fast path of bulk creation. It is at least as
 * strict as the DTO's class-validator rules, so a row it accepts is valid; a row it refuses is
 * validated again by class-validator, which names the problems in the usual terms.
 */
const MEMBER_ROW = {
  type: 'object',
  additionalProperties: false,
  required: ['first_name', 'last_name'],
  properties: {
    first_name: { type: 'string', minLength: 1, maxLength: 100 },
    last_name: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: ['string', 'null'], maxLength: 254, format: 'email' },
    phone: { type: ['string', 'null'], pattern: E164.source },
    birthdate: { type: ['string', 'null'], pattern: DATE_ONLY.source, format: 'past-date' },
    gender: { enum: [...GENDERS, null] },
    status: { enum: [...MEMBER_STATUSES] },
    campus: text(64),
    active: { type: 'boolean' },
    household_id: { type: ['string', 'null'], pattern: '^hh_[0-9a-f]{32}$' },
    address: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        line1: text(200),
        line2: text(200),
        city: text(100),
        region: text(100),
        postal_code: text(20),
        country: { type: ['string', 'null'], pattern: '^[A-Z]{2}$' },
      },
    },
    custom_fields: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { pattern: '^[a-z][a-z0-9_]{0,39}$' },
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 500 },
    },
  },
};

/**
 * Plain ASCII addresses (dot-separated atoms of letters, digits, `_%+-`; LDH labels of at most 63
 * characters; a TLD of letters), a subset of what `isEmail` accepts with class-validator's
 * defaults. validator.js's isEmail costs ~5–10 µs an address (option merging, splits, a dozen
 * regexes): most of a bulk row's validation.
 */
const PLAIN_EMAIL = /^[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Exactly `isEmail(value)` (`@IsEmail()` of CreateMemberDto): a plain address is decided by one regex, any other by isEmail. */
export function isEmailAddress(value: string): boolean {
  return (value.length <= 254 && value.indexOf('@') <= 64 && PLAIN_EMAIL.test(value)) || isEmail(value);
}

const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('email', { type: 'string', validate: isEmailAddress });
ajv.addFormat('past-date', {
  type: 'string',
  validate: (value: string) => isRealDate(value) && value >= '1900-01-01' && value <= todayUtc(),
});

export const isValidMemberRow = ajv.compile(MEMBER_ROW);
