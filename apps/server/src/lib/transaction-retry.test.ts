import { describe, expect, it } from 'vitest';
import { CONFLICT_ATTEMPTS, isTransactionConflict, retryOnConflict } from './transaction-retry';

describe('transactions aborted by a concurrent one', () => {
  const pgError = (code: string) => Object.assign(new Error(`error ${code}`), { code });
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: update'), { cause });

  it('are serialization failures and deadlocks, also inside a query error', () => {
    expect(isTransactionConflict(pgError('40001'))).toBe(true);
    expect(isTransactionConflict(wrapped(pgError('40P01')))).toBe(true);
    expect(isTransactionConflict(wrapped(pgError('23505')))).toBe(false);
    expect(isTransactionConflict(pgError('57P01'))).toBe(false);
    expect(isTransactionConflict(null)).toBe(false);
  });

  it('run again until they go through, at most CONFLICT_ATTEMPTS times in all', async () => {
    let runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        if (runs < CONFLICT_ATTEMPTS) throw wrapped(pgError(runs % 2 ? '40001' : '40P01'));
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(runs).toBe(CONFLICT_ATTEMPTS);
    runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw pgError('40001');
      }),
    ).rejects.toMatchObject({ code: '40001' });
    expect(runs).toBe(CONFLICT_ATTEMPTS);
  });

  it('never run again for any other error', async () => {
    let runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw pgError('23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });
});
