import type { AddressDto } from '../../modules/members/dto/address.dto';
import type { CreateMemberDto } from '../../modules/members/dto/create-member.dto';
import type { HouseholdRole, MemberStatus } from '../../modules/members/member.entity';
import { ALLERGIES, CITIES, ENGLISH_LAST_NAMES, FIRST_NAMES, LAST_NAMES, STREETS, TAGS } from './seed-demo.data';

/** One demo member: the create body, their role in the family's household (null: no household), age and tags. */
export interface DemoPerson {
  dto: CreateMemberDto;
  role: HouseholdRole | null;
  age: number;
  tags: string[];
}

/** A household and its people (head first), or one member in no household (`household` null). */
export interface DemoFamily {
  household: { name: string; address: AddressDto } | null;
  people: DemoPerson[];
}

type Gender = 'female' | 'male';

/** Household sizes and their weights: many couples and singles, some families with children. */
const SIZES: [number, number][] = [
  [1, 0.3],
  [2, 0.35],
  [3, 0.15],
  [4, 0.12],
  [5, 0.08],
];

const ADULT_STATUSES: [MemberStatus, number][] = [
  ['visitor', 0.15],
  ['regular', 0.3],
  ['member', 0.45],
  ['leader', 0.1],
];

/**
 * The demo church's people, deterministic for a given `rand`: `households` families sharing a last
 * name, an address and a campus (a head, often a spouse, children, now and then a grandparent),
 * then members in no household until there are `count` people.
 */
export class DemoPeople {
  private readonly year = new Date().getUTCFullYear();
  private serial = 0;

  constructor(
    private readonly rand: () => number,
    private readonly campuses: readonly string[],
  ) {}

  families(count: number, households: number): DemoFamily[] {
    const families: DemoFamily[] = [];
    let left = count;
    const wanted = Math.min(households, count);
    for (let h = 0; h < wanted; h++) {
      const size = Math.min(this.weighted(SIZES), left - (wanted - h - 1));
      families.push(this.family(size));
      left -= size;
    }
    for (; left > 0; left--) {
      const gender = this.gender();
      const address = this.rand() < 0.6 ? this.address() : null;
      families.push({
        household: null,
        people: [
          this.person(gender, this.pick(LAST_NAMES), 18 + this.int(70), null, this.pick(this.campuses), address),
        ],
      });
    }
    return families;
  }

  private family(size: number): DemoFamily {
    const last = this.pick(LAST_NAMES);
    const address = this.address();
    const campus = this.pick(this.campuses);
    const name = ENGLISH_LAST_NAMES.has(last) ? `${last} family` : `Familia ${last}`;
    if (size === 1)
      return {
        household: { name, address },
        people: [this.person(this.gender(), last, 20 + this.int(65), 'head', campus, address)],
      };
    const withChildren = size > 2;
    const headAge = withChildren ? 28 + this.int(30) : 22 + this.int(55);
    const headGender: Gender = this.rand() < 0.8 ? 'male' : 'female';
    const people = [this.person(headGender, last, headAge, 'head', campus, address)];
    // Now and then a single parent, or a grandparent living with the family.
    const singleParent = withChildren && this.rand() < 0.15;
    const grandparent = size > 3 && this.rand() < 0.2;
    if (!singleParent)
      people.push(
        this.person(
          headGender === 'male' ? 'female' : 'male',
          last,
          Math.max(18, headAge - 4 + this.int(9)),
          'spouse',
          campus,
          address,
        ),
      );
    if (grandparent)
      people.push(this.person(this.gender(), last, headAge + 22 + this.int(10), 'adult', campus, address));
    while (people.length < size)
      people.push(this.person(this.gender(), last, Math.max(0, headAge - 20 - this.int(18)), 'child', campus, address));
    return { household: { name, address }, people };
  }

  private person(
    gender: Gender,
    last: string,
    age: number,
    role: HouseholdRole | null,
    campus: string,
    address: AddressDto | null,
  ): DemoPerson {
    const first = this.pick(FIRST_NAMES[gender]);
    const serial = this.serial++;
    const adult = age >= 16;
    const born = this.year - age - 1;
    const status = age < 12 ? 'regular' : this.weighted(ADULT_STATUSES);
    const dto: CreateMemberDto = {
      first_name: first,
      last_name: last,
      email: adult ? ascii(`${first}.${last}.${serial}@example.org`) : null,
      gender,
      birthdate: `${born}-${pad(1 + this.int(12))}-${pad(1 + this.int(28))}`,
      status,
      campus,
      active: this.rand() > 0.1,
      phone: adult ? `+52133${String(10000000 + this.int(89999999))}` : null,
      address: address ? { ...address } : null,
      custom_fields: this.customFields(age, born, status),
    };
    const tags = TAGS.filter((t) => age >= t.minAge && age <= t.maxAge && this.rand() < t.share).map((t) => t.name);
    return { dto, role, age, tags };
  }

  /** Values of the demo custom fields (CUSTOM_FIELDS): allergies for some (children more), a T-shirt size for many, a baptism date for most members. */
  private customFields(age: number, born: number, status: MemberStatus): Record<string, string> {
    const values: Record<string, string> = {};
    if (this.rand() < (age < 12 ? 0.25 : 0.05)) values.allergies = this.pick(ALLERGIES);
    if (this.rand() < 0.4)
      values.tshirt_size = age < 12 ? this.pick(['XS', 'S']) : this.pick(['S', 'M', 'M', 'L', 'L', 'XL']);
    if (age >= 12 && (status === 'member' || status === 'leader') && this.rand() < 0.8) {
      values.baptism_date = `${born + 12 + this.int(age - 11)}-${pad(1 + this.int(12))}-${pad(1 + this.int(28))}`;
    }
    return values;
  }

  private address(): AddressDto {
    const place = this.pick(CITIES);
    return {
      line1: `${this.pick(STREETS)} ${1 + this.int(2400)}`,
      city: place.city,
      region: place.region,
      postal_code: `${place.postal}${String(this.int(10 ** (5 - place.postal.length))).padStart(5 - place.postal.length, '0')}`,
      country: place.country,
    };
  }

  private gender(): Gender {
    return this.rand() < 0.5 ? 'female' : 'male';
  }

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }

  private weighted<T>(choices: [T, number][]): T {
    let r = this.rand();
    for (const [value, weight] of choices) {
      if (r < weight) return value;
      r -= weight;
    }
    return choices[choices.length - 1][0];
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** An e-mail address without accents. */
export function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
