import type { TagColor } from '../../modules/tags/tag.entity';

export const FIRST_NAMES = {
  female: [
    'María',
    'Guadalupe',
    'Sofía',
    'Valentina',
    'Camila',
    'Lucía',
    'Ximena',
    'Daniela',
    'Ana',
    'Isabel',
    'Emily',
    'Grace',
    'Hannah',
    'Olivia',
    'Abigail',
    'Ruth',
    'Esther',
    'Fernanda',
    'Paula',
    'Rebeca',
  ],
  male: [
    'José',
    'Juan',
    'Luis',
    'Carlos',
    'Miguel',
    'Santiago',
    'Mateo',
    'Diego',
    'Andrés',
    'Javier',
    'James',
    'Daniel',
    'Samuel',
    'David',
    'Joshua',
    'Caleb',
    'Nathan',
    'Pedro',
    'Tomás',
    'Emilio',
  ],
};

export const LAST_NAMES = [
  'García',
  'Hernández',
  'Martínez',
  'López',
  'González',
  'Rodríguez',
  'Pérez',
  'Sánchez',
  'Ramírez',
  'Torres',
  'Flores',
  'Rivera',
  'Gómez',
  'Díaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Ortiz',
  'Castillo',
  'Jiménez',
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Miller',
  'Davis',
  'Wilson',
  'Anderson',
  'Thomas',
  'Moore',
];

export const CAMPUSES = [
  { key: 'central', name: 'Campus Central', timezone: 'America/Mexico_City' },
  { key: 'norte', name: 'Campus Norte', timezone: 'America/Mexico_City' },
  { key: 'online', name: 'Online', timezone: 'UTC' },
];

/** Where the demo church's families live (most near the two physical campuses). */
export const CITIES = [
  { city: 'Guadalajara', region: 'Jalisco', country: 'MX', postal: '44' },
  { city: 'Guadalajara', region: 'Jalisco', country: 'MX', postal: '44' },
  { city: 'Zapopan', region: 'Jalisco', country: 'MX', postal: '45' },
  { city: 'Tlaquepaque', region: 'Jalisco', country: 'MX', postal: '45' },
  { city: 'San Antonio', region: 'TX', country: 'US', postal: '782' },
];

export const STREETS = [
  'Av. Juárez',
  'Calle Hidalgo',
  'Av. Vallarta',
  'Calle Morelos',
  'Av. Chapultepec',
  'Calle Independencia',
  'Av. López Mateos',
  'Calle Reforma',
  'Calle Pino Suárez',
];

/** Last names used by English-speaking families (their household is "… family", not "Familia …"). */
export const ENGLISH_LAST_NAMES = new Set([
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Miller',
  'Davis',
  'Wilson',
  'Anderson',
  'Thomas',
  'Moore',
]);

/** The demo tags: who may carry one (ages, inclusive) and the share of those who do. */
export const TAGS: readonly { name: string; color: TagColor; minAge: number; maxAge: number; share: number }[] = [
  { name: 'Kids church', color: 'green', minAge: 3, maxAge: 11, share: 0.8 },
  { name: 'Youth', color: 'blue', minAge: 12, maxAge: 24, share: 0.7 },
  { name: 'Choir', color: 'purple', minAge: 14, maxAge: 90, share: 0.08 },
  { name: 'Worship team', color: 'pink', minAge: 16, maxAge: 60, share: 0.06 },
  { name: 'Ushers', color: 'brown', minAge: 18, maxAge: 80, share: 0.06 },
  { name: 'Small group leader', color: 'green', minAge: 25, maxAge: 80, share: 0.07 },
  { name: 'Sunday school teacher', color: 'orange', minAge: 18, maxAge: 75, share: 0.05 },
  { name: 'Prayer team', color: 'grey', minAge: 30, maxAge: 95, share: 0.08 },
  { name: 'Hospitality', color: 'orange', minAge: 18, maxAge: 85, share: 0.06 },
  { name: 'New believer', color: 'red', minAge: 10, maxAge: 95, share: 0.06 },
];

/** The demo custom fields, one of each kind a church asks most: a text, a select, a date. */
export const CUSTOM_FIELDS: readonly {
  key: string;
  label: string;
  type: 'text' | 'select' | 'date';
  options?: string[];
}[] = [
  { key: 'allergies', label: 'Allergies and medical notes', type: 'text' },
  { key: 'tshirt_size', label: 'T-shirt size', type: 'select', options: ['XS', 'S', 'M', 'L', 'XL'] },
  { key: 'baptism_date', label: 'Baptism date', type: 'date' },
];

export const ALLERGIES = [
  'Peanuts',
  'Penicillin',
  'Asthma (inhaler in the bag)',
  'Lactose intolerant',
  'Bee stings',
  'Gluten',
  'Alergia al huevo',
];

/** How many demo prospects stand at each stage; `converted` ones go through the real convert. */
export const PROSPECT_STAGES_PLAN = [
  ['new', 6],
  ['contacted', 6],
  ['visited', 5],
  ['connecting', 4],
  ['lost', 3],
  ['converted', 6],
] as const;

export const PROSPECT_NOTES = [
  'Came with the Ortiz family; interested in the youth group.',
  'Filled in a welcome card at the Sunday service.',
  'Asked about baptism classes.',
  'Met at the Christmas concert; has two young children.',
  'Found us online; would like a call in the evening.',
  'Visitó el domingo con su esposa; quiere conocer los grupos pequeños.',
  'Llegó por la página web; prefiere que lo contacten por WhatsApp.',
  'Interesada en el ministerio de niños.',
  'Vino al estudio bíblico del miércoles invitado por un vecino.',
];

/** The demo prayer requests: who asks (a member, or a visitor by name), how visible, and the answer if there is one. */
export const PRAYER_REQUESTS: readonly {
  request: string;
  visibility: 'private' | 'staff' | 'public';
  urgent?: boolean;
  visitor?: string;
  answer?: string;
}[] = [
  {
    request: 'Please pray for my mother, who has surgery on Friday.',
    visibility: 'staff',
    urgent: true,
    answer: 'The surgery went well; she is home and recovering.',
  },
  { request: 'Oren por mi trabajo: la empresa está despidiendo personal.', visibility: 'staff' },
  { request: 'For our marriage: we are going through a hard season.', visibility: 'private' },
  { request: 'Por la salud de mi papá, que está en el hospital.', visibility: 'public', urgent: true },
  {
    request: 'Thanks to God for the birth of our daughter! Pray for rest for us.',
    visibility: 'public',
    answer: 'Baby and mother are doing great.',
  },
  { request: 'Mi hijo empieza la universidad en otra ciudad; oren por él.', visibility: 'public' },
  { request: 'I am struggling with anxiety and would like someone to call me.', visibility: 'private', urgent: true },
  { request: 'Por mi vecina Carmen, que quiere conocer a Dios.', visibility: 'staff', visitor: 'Carmen (vecina)' },
  {
    request: 'For the mission trip to Oaxaca next month.',
    visibility: 'public',
    answer: 'The team returned safely; 40 families were served.',
  },
  { request: 'Oren por nuestros papeles de residencia.', visibility: 'private' },
  { request: 'Pray for my job interview on Tuesday.', visibility: 'staff', answer: 'I got the job!' },
  { request: 'Por la paz en nuestra familia.', visibility: 'staff' },
  {
    request: 'My brother was in a car accident; he is in intensive care.',
    visibility: 'staff',
    urgent: true,
    visitor: 'Daniel (visitor)',
  },
  { request: 'Por los jóvenes del campamento de verano.', visibility: 'public' },
  { request: 'For wisdom as we decide whether to move.', visibility: 'staff' },
  {
    request: 'Oren por mi recuperación después de la quimioterapia.',
    visibility: 'staff',
    answer: 'Los últimos estudios salieron limpios. ¡Gloria a Dios!',
  },
  { request: 'Pray for my son, who has stopped coming to church.', visibility: 'private' },
  {
    request: 'Por trabajo para mi esposo.',
    visibility: 'staff',
    visitor: 'Rosa (visitante)',
    answer: 'Encontró trabajo en una constructora.',
  },
  { request: 'For the new building project and the families giving to it.', visibility: 'public' },
  { request: 'Oren por mi examen de titulación.', visibility: 'staff' },
];

/** Small deterministic PRNG (mulberry32) so a demo church looks the same on every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
