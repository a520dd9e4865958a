import { describe, expect, it } from 'vitest';
import { isDatabaseConnectionLost } from './database-errors';

// What the error handler answers 503 DATABASE_UNAVAILABLE for (the whole path,
// with a real terminated connection, is in apps/server/test/faults/).
describe('a lost database connection', () => {
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: rollback\nparams: '), { cause });

  it('is recognised by its SQLSTATE, its socket error or the driver message, also inside a query error', () => {
    expect(isDatabaseConnectionLost(pgError('57P01', 'terminating connection due to administrator command'))).toBe(
      true,
    );
    expect(isDatabaseConnectionLost(pgError('08006', 'connection failure'))).toBe(true);
    expect(isDatabaseConnectionLost(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
    expect(
      isDatabaseConnectionLost(wrapped(new Error('Client has encountered a connection error and is not queryable'))),
    ).toBe(true);
    expect(isDatabaseConnectionLost(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
  });

  it('is not any other database error', () => {
    expect(isDatabaseConnectionLost(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseConnectionLost(wrapped(pgError('40001', 'could not serialize access')))).toBe(false);
    // A query's text (in the wrapper's message) never counts.
    expect(isDatabaseConnectionLost(new Error("Failed query: SELECT 'Connection terminated'"))).toBe(false);
    expect(isDatabaseConnectionLost(new Error('boom'))).toBe(false);
    expect(isDatabaseConnectionLost(undefined)).toBe(false);
  });
});
