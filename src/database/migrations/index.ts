import { CreateFoundation1764100000000 } from './1764100000000-CreateFoundation';

/** Every migration, in order. A new migration is added here too. */
export const MIGRATIONS = [CreateFoundation1764100000000];
