import { AppError } from './app-error';

interface PgError {
  code?: string;
  errno?: number;
  message?: string;
  constraint?: string;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown[];
}

/**
 * The connection to PostgreSQL is gone or cannot be made: the server shuts down or restarts
 * (57P01-57P03, any SQLSTATE of class 08), refuses more clients (53300), ends a session left idle
 * in a transaction (25P03, DB_IDLE_IN_TRANSACTION_TIMEOUT_MS), or the socket fails.
 */
const CONNECTION_CODES = new Set([
  '25P03',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres and pg-pool throw, without a code, for a connection that ended or never came. */
const CONNECTION_MESSAGES = [
  /^Connection terminated\b/, // 'Connection terminated unexpectedly', '… due to connection timeout', and at end()
  /\bis not queryable$/, // 'Client has encountered a connection error and is not queryable', 'Client was closed and is not queryable'
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/,
];

/** The error itself, then what it wraps: TypeORM's `driverError`, a `cause`, an AggregateError's `errors` (a connect to several addresses). */
function* chain(exception: unknown, depth = 0): Generator<PgError> {
  if (typeof exception !== 'object' || exception === null || depth > 4) return;
  const err = exception as PgError;
  yield err;
  yield* chain(err.driverError, depth + 1);
  yield* chain(err.cause, depth + 1);
  if (Array.isArray(err.errors)) for (const inner of err.errors) yield* chain(inner, depth + 1);
}

/**
 * Is this error a lost or refused database connection, however it is wrapped? Such a failure is
 * temporary and says nothing of the request: a 503, never a 500. At COMMIT it leaves the outcome
 * unknown; an Idempotency-Key lets the client retry safely.
 */
export function isConnectionLoss(exception: unknown): boolean {
  for (const err of chain(exception)) {
    if (typeof err.code === 'string' && (CONNECTION_CODES.has(err.code) || /^08[0-9A-Z]{3}$/.test(err.code)))
      return true;
    if (typeof err.message === 'string' && CONNECTION_MESSAGES.some((m) => m.test(err.message!))) return true;
  }
  return false;
}

/**
 * Maps the PostgreSQL errors a client can provoke to client errors, so that a race (two creates of
 * one unique key) is a 409, never a 500; and a lost connection to a 503 with Retry-After.
 * Constraint names follow `<table>_<columns>_key`.
 */
export function translateDatabaseError(exception: unknown): AppError | null {
  if (typeof exception !== 'object' || exception === null) return null;
  if (isConnectionLoss(exception)) return new AppError('service_unavailable', {}, [], { 'Retry-After': '5' });
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
    case '40001':
    case '40P01':
      return new AppError('conflict', { reason: 'concurrent update; retry' });
    // DB_STATEMENT_TIMEOUT_MS: the statement was canceled and its transaction rolled back; retry later.
    case '57014':
      return new AppError('service_unavailable', {}, [], { 'Retry-After': '5' });
    default:
      return null;
  }
}
