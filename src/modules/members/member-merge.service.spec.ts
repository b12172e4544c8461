import 'reflect-metadata';
import { MemberEntity } from './member.entity';
import { mergedFields } from './member-merge.service';

const member = (fields: Partial<MemberEntity>): MemberEntity =>
  Object.assign(new MemberEntity(), {
    tenantId: 't',
    id: 'm',
    firstName: 'Ana',
    lastName: 'Ruiz',
    email: null,
    phone: null,
    birthdate: null,
    gender: null,
    status: 'visitor',
    campusId: null,
    active: true,
    householdId: null,
    householdRole: null,
    address: null,
    customFields: {},
    createdAt: new Date(0),
    updatedAt: new Date(0),
    deletedAt: null,
    mergedInto: null,
    ...fields,
  });

const context = { definedKeys: new Set(['size', 'baptized']), liveHouseholds: new Set(['h1', 'h2']) };

describe('mergedFields (what a merge changes on the survivor)', () => {
  it('fills only what the survivor has no value for; an address with every part empty is none', () => {
    const survivor = member({ phone: '+521', email: '', address: { line1: null, city: '' }, active: false });
    const duplicate = member({
      firstName: 'Anita',
      phone: '+522',
      email: 'a@example.org',
      birthdate: '1990-01-02',
      address: { line1: 'Av. 1' },
      active: true,
      status: 'member',
    });
    expect(mergedFields(survivor, duplicate, {}, context)).toEqual({
      email: 'a@example.org',
      birthdate: '1990-01-02',
      address: { line1: 'Av. 1' },
    });
  });

  it('`duplicate` takes the duplicate’s value unless it has none; `survivor` keeps the survivor’s even empty', () => {
    const survivor = member({ phone: '+521', email: null });
    const duplicate = member({ firstName: 'Anita', phone: null, email: 'a@example.org', active: false });
    expect(
      mergedFields(
        survivor,
        duplicate,
        { first_name: 'duplicate', phone: 'duplicate', email: 'survivor', active: 'duplicate' },
        context,
      ),
    ).toEqual({ firstName: 'Anita', active: false });
  });

  it('custom fields go key by key, and only the keys the church still defines', () => {
    const survivor = member({ customFields: { size: 'M', baptized: null } });
    const duplicate = member({ customFields: { size: 'L', baptized: true, gone: 'x' } });
    expect(mergedFields(survivor, duplicate, {}, context).customFields).toEqual({ size: 'M', baptized: true });
    expect(mergedFields(survivor, duplicate, { custom_fields: 'duplicate' }, context).customFields).toEqual({
      size: 'L',
      baptized: true,
    });
    expect(mergedFields(survivor, duplicate, { custom_fields: 'survivor' }, context).customFields).toBeUndefined();
    expect(mergedFields(survivor, member({ customFields: { size: null } }), {}, context)).toEqual({});
  });

  it('the household comes with its role, only a live one, and only when the survivor has none (or prefer says so)', () => {
    const homeless = member({});
    const housed = member({ householdId: 'h1', householdRole: 'head' });
    const duplicate = member({ householdId: 'h2', householdRole: 'child' });
    expect(mergedFields(homeless, duplicate, {}, context)).toEqual({ householdId: 'h2', householdRole: 'child' });
    expect(mergedFields(housed, duplicate, {}, context)).toEqual({});
    expect(mergedFields(housed, duplicate, { household_id: 'duplicate' }, context)).toEqual({
      householdId: 'h2',
      householdRole: 'child',
    });
    expect(mergedFields(homeless, member({ householdId: 'h3', householdRole: 'adult' }), {}, context)).toEqual({});
    expect(
      mergedFields(
        housed,
        member({ householdId: 'h1', householdRole: 'spouse' }),
        { household_id: 'duplicate' },
        context,
      ),
    ).toEqual({ householdRole: 'spouse' });
  });
});
