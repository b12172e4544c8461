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

const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('email', { type: 'string', validate: (value: string) => isEmail(value) });
ajv.addFormat('past-date', {
  type: 'string',
  validate: (value: string) => isRealDate(value) && value >= '1900-01-01' && value <= todayUtc(),
});

export const isValidMemberRow = ajv.compile(MEMBER_ROW);
