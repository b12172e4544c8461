import type { AttendanceKind } from '../../modules/attendance/attendance.entity';
import type { CreateEventDto } from '../../modules/events/dto/create-event.dto';
import { toInstant } from '../../modules/events/zoned-time';
import type { CreateGroupDto } from '../../modules/groups/dto/create-group.dto';
import { CAMPUSES } from './seed-demo.data';

const DAY = 86_400_000;
const WEEKS = 52;

/** A seeded member as the ministry plan sees them: uuid, campus key, age. */
export interface MinistryPerson {
  id: string;
  campus: string;
  age: number;
}

/** Each campus's Sunday service, local to the campus (the event takes the campus's time zone). */
export const SERVICES: readonly { campus: string; name: string; time: string; minutes: number; location: string }[] = [
  {
    campus: 'central',
    name: 'Servicio dominical — Central',
    time: '11:00',
    minutes: 90,
    location: 'Auditorio principal',
  },
  { campus: 'norte', name: 'Servicio dominical — Norte', time: '10:00', minutes: 90, location: 'Salón Norte' },
  {
    campus: 'online',
    name: 'Servicio dominical — En línea',
    time: '17:00',
    minutes: 75,
    location: 'Transmisión en vivo',
  },
];

const GROUPS: readonly {
  name: string;
  campus: string;
  day: NonNullable<CreateGroupDto['meeting_day']>;
  time: string;
  location: string;
}[] = [
  {
    name: 'Célula Chapalita',
    campus: 'central',
    day: 'tuesday',
    time: '19:30',
    location: 'Av. Guadalupe 1200, Guadalajara',
  },
  {
    name: 'Célula Providencia',
    campus: 'central',
    day: 'wednesday',
    time: '20:00',
    location: 'Calle Colomos 2250, Guadalajara',
  },
  {
    name: 'Célula Americana',
    campus: 'central',
    day: 'thursday',
    time: '19:00',
    location: 'Calle Libertad 1800, Guadalajara',
  },
  {
    name: 'Célula Tlaquepaque',
    campus: 'central',
    day: 'friday',
    time: '19:30',
    location: 'Calle Independencia 90, Tlaquepaque',
  },
  {
    name: 'Jóvenes Central',
    campus: 'central',
    day: 'saturday',
    time: '18:00',
    location: 'Auditorio principal, salón 3',
  },
  { name: 'Matrimonios en línea', campus: 'online', day: 'friday', time: '20:00', location: 'Videollamada' },
  { name: 'Célula Zapopan', campus: 'norte', day: 'tuesday', time: '19:00', location: 'Av. Patria 3100, Zapopan' },
  { name: 'Célula Tesistán', campus: 'norte', day: 'wednesday', time: '19:30', location: 'Calle Hidalgo 12, Tesistán' },
  {
    name: 'Célula Valle Real',
    campus: 'norte',
    day: 'thursday',
    time: '20:00',
    location: 'Paseo Valle Real 700, Zapopan',
  },
  { name: 'Jóvenes Norte', campus: 'norte', day: 'saturday', time: '17:30', location: 'Salón Norte' },
  { name: 'Mujeres de Fe', campus: 'norte', day: 'monday', time: '10:00', location: 'Salón Norte, sala 2' },
  { name: 'Célula en línea', campus: 'online', day: 'thursday', time: '20:00', location: 'Videollamada' },
];

/** Upcoming events that take registrations: weeks from now, seats, and the share of the seats members take. */
const UPCOMING: readonly {
  name: string;
  campus: string;
  inWeeks: number;
  weekday: number;
  time: string;
  hours: number;
  capacity: number;
  fill: number;
  location: string;
  description: string;
}[] = [
  {
    name: 'Retiro de matrimonios',
    campus: 'central',
    inWeeks: 3,
    weekday: 6,
    time: '09:00',
    hours: 8,
    capacity: 40,
    fill: 0.4,
    location: 'Rancho La Esperanza, Tapalpa',
    description: 'Un día para parejas: enseñanza, dinámicas y comida. Cuidado de niños incluido.',
  },
  {
    name: 'Campamento de jóvenes',
    campus: 'norte',
    inWeeks: 6,
    weekday: 5,
    time: '17:00',
    hours: 48,
    capacity: 60,
    fill: 0.3,
    location: 'Campamento Bosque de la Primavera',
    description: 'Fin de semana para jóvenes de 13 a 25 años.',
  },
  {
    name: 'Noche de alabanza',
    campus: 'central',
    inWeeks: 1,
    weekday: 5,
    time: '19:30',
    hours: 2,
    capacity: 150,
    fill: 0.2,
    location: 'Auditorio principal',
    description: 'Una noche de adoración con todas las células.',
  },
];

export const GUESTS = [
  { first_name: 'Laura', last_name: 'Navarro', email: 'laura.navarro@example.net' },
  { first_name: 'Kevin', last_name: 'Miller', email: null },
  { first_name: 'Rosa', last_name: 'Delgado', email: 'rosa.delgado@example.net' },
] as const;

export interface PlannedService {
  key: string;
  dto: CreateEventDto;
  /** The members there (uuids), when each arrived, and as what. */
  attendance: { memberId: string; kind: AttendanceKind; checkedInAt: Date }[];
}

export interface PlannedGroup {
  dto: CreateGroupDto;
  leader: string;
  members: string[];
}

export interface PlannedEvent {
  key: string;
  dto: CreateEventDto;
  /** Members (uuids) registering, then one guest. */
  registrants: string[];
  guest: (typeof GUESTS)[number];
}

export interface MinistryPlan {
  services: PlannedService[];
  groups: PlannedGroup[];
  upcoming: PlannedEvent[];
}

/**
 * A year of a church's ministry, deterministic for a given `rand`, from this run's members: the
 * last 52 Sunday services of each campus with who came (each member their own faithfulness, fewer
 * in the summer holidays and at new year, more at Easter and Christmas; a few adults
 * serving as volunteers, who come early), 12 cell groups with a leader and 4 to 9 members of
 * their campus, and a few upcoming events with seats that some members (and a guest) registered for.
 */
export class MinistryPlanner {
  private readonly today = new Date();

  constructor(private readonly rand: () => number) {}

  plan(people: MinistryPerson[]): MinistryPlan {
    return { services: this.services(people), groups: this.groups(people), upcoming: this.upcoming(people) };
  }

  /** The last 52 Sundays (the most recent one on or before today). */
  sundays(): string[] {
    const last = new Date(
      Date.UTC(this.today.getUTCFullYear(), this.today.getUTCMonth(), this.today.getUTCDate() - this.today.getUTCDay()),
    );
    return Array.from({ length: WEEKS }, (_, i) =>
      new Date(last.getTime() - (WEEKS - 1 - i) * 7 * DAY).toISOString().slice(0, 10),
    );
  }

  private services(people: MinistryPerson[]): PlannedService[] {
    const faithfulness = new Map(people.map((p) => [p.id, 0.3 + this.rand() * 0.65]));
    const volunteers = new Set(people.filter((p) => p.age >= 18 && this.rand() < 0.08).map((p) => p.id));
    const planned: PlannedService[] = [];
    for (const day of this.sundays()) {
      const season = seasonOf(day);
      for (const service of SERVICES) {
        const start = localInstant(service.campus, day, service.time);
        const attendance = people
          .filter((p) => p.campus === service.campus && this.rand() < Math.min(0.98, faithfulness.get(p.id)! * season))
          .map((p): PlannedService['attendance'][number] => ({
            memberId: p.id,
            kind: volunteers.has(p.id) ? 'volunteer' : 'regular',
            // Volunteers come early; everyone else from 20 minutes before to 10 after.
            checkedInAt: new Date(start.getTime() + (volunteers.has(p.id) ? -60 : -20 + this.int(30)) * 60_000),
          }));
        planned.push({
          key: eventKey(service.name, start),
          dto: {
            name: service.name,
            campus: service.campus,
            starts_at: `${day}T${service.time}`,
            ends_at: `${day}T${addMinutes(service.time, service.minutes)}`,
            location: service.location,
            registration_open: false,
          },
          attendance,
        });
      }
    }
    return planned;
  }

  /** 12 groups; the leader an adult of the campus, 4 to 9 members of the campus of 12 or older; nobody in two groups. */
  private groups(people: MinistryPerson[]): PlannedGroup[] {
    const free = this.shuffle(people.filter((p) => p.age >= 12));
    return GROUPS.map((g) => {
      const take = (adult: boolean, n: number): string[] => {
        const chosen: string[] = [];
        for (let i = 0; i < free.length && chosen.length < n;) {
          if (free[i].campus === g.campus && (!adult || free[i].age >= 18)) chosen.push(free.splice(i, 1)[0].id);
          else i++;
        }
        return chosen;
      };
      const [leader] = take(true, 1);
      return {
        dto: {
          name: g.name,
          campus: g.campus,
          meeting_day: g.day,
          meeting_time: g.time,
          location: g.location,
          description: null,
        },
        leader,
        members: take(false, 4 + this.int(6)),
      };
    }).filter((g) => g.leader !== undefined);
  }

  private upcoming(people: MinistryPerson[]): PlannedEvent[] {
    const adults = people.filter((p) => p.age >= 13);
    return UPCOMING.map((e, i) => {
      const day = new Date(
        Date.UTC(
          this.today.getUTCFullYear(),
          this.today.getUTCMonth(),
          this.today.getUTCDate() + e.inWeeks * 7 + ((e.weekday - this.today.getUTCDay() + 7) % 7),
        ),
      );
      const date = day.toISOString().slice(0, 10);
      const end = new Date(
        day.getTime() + (Number(e.time.slice(0, 2)) * 60 + Number(e.time.slice(3)) + e.hours * 60) * 60_000,
      );
      const campusPeople = adults.filter((p) => p.campus === e.campus);
      return {
        key: eventKey(e.name, localInstant(e.campus, date, e.time)),
        dto: {
          name: e.name,
          campus: e.campus,
          starts_at: `${date}T${e.time}`,
          ends_at: end.toISOString().slice(0, 16),
          capacity: e.capacity,
          location: e.location,
          description: e.description,
        },
        registrants: this.shuffle(campusPeople)
          .slice(0, Math.round(e.capacity * e.fill))
          .map((p) => p.id),
        guest: GUESTS[i % GUESTS.length],
      };
    });
  }

  private shuffle<T>(list: readonly T[]): T[] {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }
}

/** How a Sunday compares with an ordinary one: summer holidays and new year lower, Easter and Christmas higher. */
function seasonOf(day: string): number {
  const [month, date] = [Number(day.slice(5, 7)), Number(day.slice(8, 10))];
  if (month === 12 && date >= 18 && date <= 24) return 1.3;
  if ((month === 3 && date >= 22) || (month === 4 && date <= 25)) return 1.1;
  if (month === 7 || (month === 8 && date <= 15) || (month === 1 && date <= 7)) return 0.8;
  return 1;
}

/** The instant of a local date and time at the campus (in its time zone, as the event reads it). */
function localInstant(campus: string, day: string, time: string): Date {
  return toInstant(`${day}T${time}`, CAMPUSES.find((c) => c.key === campus)?.timezone ?? 'UTC')!;
}

function addMinutes(time: string, minutes: number): string {
  const total = Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) + minutes;
  return `${String(Math.floor(total / 60) % 24).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** How an event is found again by a second run: its name and start. */
export function eventKey(name: string, startsAt: Date | string): string {
  return `${name}|${new Date(startsAt).toISOString()}`;
}
