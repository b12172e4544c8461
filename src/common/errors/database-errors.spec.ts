import { QueryFailedError } from 'typeorm';
import { isConnectionLoss, translateDatabaseError } from './database-errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** A server error as node-postgres builds it (DatabaseError: message, code, severity). */
const serverError = (message: string, code: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
const failed = (driverError: Error, query = 'INSERT INTO members …') => new QueryFailedError(query, [], driverError);

/** The shapes seen when PostgreSQL restarts or the network drops, at connect, mid-query and at COMMIT. */
const CONNECTION_LOSSES: [string, unknown][] = [
  [
    'a restart ends the session (57P01)',
    failed(serverError('terminating connection due to administrator command', '57P01')),
  ],
  [
    '57P01 while idle, as the client emits it',
    serverError('terminating connection due to administrator command', '57P01'),
  ],
  [
    'crash shutdown (57P02)',
    failed(serverError('terminating connection because of crash of another server process', '57P02')),
  ],
  ['starting up or shutting down (57P03), at connect', serverError('the database system is shutting down', '57P03')],
  ['too many clients (53300)', serverError('sorry, too many clients already', '53300')],
  ['a connection exception (08006)', failed(serverError('connection failure', '08006'))],
  ['08000', serverError('connection exception', '08000')],
  ['08001', serverError('sqlclient unable to establish sqlconnection', '08001')],
  ['08003', serverError('connection does not exist', '08003')],
  ['08004', serverError('server rejected the connection', '08004')],
  ['socket closed mid-query', failed(new Error('Connection terminated unexpectedly'))],
  ['socket closed at COMMIT', failed(new Error('Connection terminated unexpectedly'), 'COMMIT')],
  ['socket closed at connect', new Error('Connection terminated unexpectedly')],
  ['client ended', failed(new Error('Connection terminated'))],
  ['pool connect time-out', new Error('Connection terminated due to connection timeout')],
  ['pool checkout time-out', new Error('timeout exceeded when trying to connect')],
  [
    'a client reused after its connection failed',
    failed(new Error('Client has encountered a connection error and is not queryable'), 'START TRANSACTION'),
  ],
  ['a client closed by shutdown', failed(new Error('Client was closed and is not queryable'))],
  ['read ECONNRESET', failed(withCode('read ECONNRESET', 'ECONNRESET'))],
  ['write EPIPE', failed(withCode('write EPIPE', 'EPIPE'))],
  ['connect ECONNREFUSED (plain, from the pool)', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
  ['connect ETIMEDOUT', withCode('connect ETIMEDOUT 10.0.0.5:5432', 'ETIMEDOUT')],
  [
    'several addresses refused (AggregateError)',
    new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
  ],
  [
    'a session left idle in a transaction (25P03)',
    serverError('terminating connection due to idle-in-transaction timeout', '25P03'),
  ],
  ['wrapped as a cause', new Error('could not start', { cause: withCode('read ECONNRESET', 'ECONNRESET') })],
];

const NOT_CONNECTION_LOSSES: [string, unknown][] = [
  ['a unique violation', failed(serverError('duplicate key value violates unique constraint "members_pkey"', '23505'))],
  ['a syntax error', failed(serverError('syntax error at or near "SELEC"', '42601'))],
  ['a statement time-out', failed(serverError('canceling statement due to statement timeout', '57014'))],
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['a code that only looks like class 08', withCode('x', '08')],
  ['a string', 'Connection terminated unexpectedly'],
  ['null', null],
];

describe('isConnectionLoss', () => {
  it.each(CONNECTION_LOSSES)('%s is a connection loss', (_, error) => {
    expect(isConnectionLoss(error)).toBe(true);
  });

  it.each(NOT_CONNECTION_LOSSES)('%s is not', (_, error) => {
    expect(isConnectionLoss(error)).toBe(false);
  });

  it('does not loop on an error that is its own cause', () => {
    const error = new Error('odd') as Error & { cause?: unknown };
    error.cause = error;
    expect(isConnectionLoss(error)).toBe(false);
  });
});

describe('translateDatabaseError', () => {
  it.each(CONNECTION_LOSSES)('%s: 503 service_unavailable with Retry-After', (_, error) => {
    expect(translateDatabaseError(error)).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      headers: { 'Retry-After': '5' },
    });
  });

  it('keeps the client errors: 409 for a unique violation, 400 for an unreadable value, none for a bug', () => {
    expect(translateDatabaseError(NOT_CONNECTION_LOSSES[0][1])).toMatchObject({ code: 'conflict', status: 409 });
    expect(translateDatabaseError(failed(serverError('invalid input syntax for type uuid', '22P02')))).toMatchObject({
      code: 'invalid_parameter',
    });
    expect(translateDatabaseError(new TypeError('x'))).toBeNull();
  });

  it('a statement canceled by DB_STATEMENT_TIMEOUT_MS is a 503 with Retry-After (its transaction rolled back)', () => {
    expect(translateDatabaseError(NOT_CONNECTION_LOSSES[2][1])).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      headers: { 'Retry-After': '5' },
    });
  });
});
