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
