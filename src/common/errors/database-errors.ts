import { AppError } from './app-error';

interface PgError {
  code?: string;
  errno?: number;
  constraint?: string;
  driverError?: PgError;
}

/**
 * Maps the PostgreSQL errors a client can provoke to client errors, so that a race (two creates of
 * one unique key) is a 409, never a 500. Constraint names follow `<table>_<columns>_key`.
 */
export function translateDatabaseError(exception: unknown): AppError | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const err = ((exception as PgError).driverError ?? exception) as PgError;
  switch (err.code) {
    case '23505':
      return new AppError('conflict', { reason: `duplicate value (${err.constraint ?? 'unique'})` });
    case '23503':
      return new AppError('conflict', { reason: `referenced record missing (${err.constraint ?? 'foreign key'})` });
    // Invalid text representation / datetime format or overflow / a character the encoding cannot hold (NUL):
    // a client value PostgreSQL could not read. (Request bodies and list filters refuse such text earlier, with the field named.)
    case '22P02':
    case '22021':
    case '22P05':
    case '22007':
    case '22008':
    case '22003':
      return new AppError('invalid_parameter', { parameter: 'value' });
    // The database refuses connections or is shutting down: a temporary condition, not a bug.
    case 'ECONNREFUSED':
    case '53300':
    case '57P01':
    case '57P03':
      return new AppError('service_unavailable', {}, [], { 'Retry-After': '5' });
    case '40001':
    case '40P01':
      return new AppError('conflict', { reason: 'concurrent update; retry' });
    default:
      return null;
  }
}
