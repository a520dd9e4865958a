import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TRIAL_CREDIT_FEN } from '@proxy/contract';
import { ledgerEntries, users, type TDbHandle } from '@proxy/db';
import { createFakeClock, createTestDatabase, itOnPostgres } from '../../../test/helpers';
import { isAppError } from '../../lib/app-error';
import type { TErrorName } from '@proxy/contract';
import { findBalance, sumEntryDeltas } from './ledger.repository';
import { createLedgerService, type TLedgerService } from './ledger.service';

// Test-only: a bare users row (the ledger needs nothing else from the account).
async function insertUser(db: TDbHandle['db']): Promise<number> {
  const tag = randomUUID().replaceAll('-', '');
  const [row] = await db
    .insert(users)
    .values({
      username: `u${tag.slice(0, 16)}`,
      email: `${tag}@example.test`,
      apiKey: `key-${tag}`,
      inviteCode: tag.slice(0, 12),
    })
    .returning({ id: users.id });
  return row!.id;
}

// The invariants of ARCHITECTURE.md "Money", checked against the database.
async function expectConsistent(
  db: TDbHandle['db'],
  userId: number,
  expected?: { availableFen: number; frozenFen: number },
) {
  const balance = (await findBalance(db, userId)) ?? { availableFen: 0, frozenFen: 0 };
  const sums = await sumEntryDeltas(db, userId);
  expect({ availableFen: sums.availableFen, frozenFen: sums.frozenFen }).toEqual(balance);
  expect(balance.availableFen).toBeGreaterThanOrEqual(0);
  expect(balance.frozenFen).toBeGreaterThanOrEqual(0);
  if (expected) expect(balance).toEqual(expected);
  return { ...balance, entryCount: sums.entryCount };
}

async function expectAppError(promise: Promise<unknown>, name: TErrorName): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isAppError(error, name), `expected ${name}, got ${String(error)}`).toBe(true);
}

describe('balance ledger', () => {
  let handle: TDbHandle;
  let ledger: TLedgerService;
  const clock = createFakeClock(new Date('2026-03-01T08:00:00Z'));

  beforeAll(async () => {
    handle = await createTestDatabase({ poolSize: 30 });
    ledger = createLedgerService({ db: handle.db, clock });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('credits a new account, creating its balance row, and records the entry with the clock time', async () => {
    const userId = await insertUser(handle.db);
    expect(await ledger.getBalance(userId)).toEqual({ availableFen: 0, frozenFen: 0 });
    const result = await ledger.credit({ userId, amountFen: 1234, reason: 'recharge', reference: 'order-1' });
    expect(result).toMatchObject({ availableFen: 1234, frozenFen: 0, isReplay: false });
    await expectConsistent(handle.db, userId, { availableFen: 1234, frozenFen: 0 });
    const { records, total } = await ledger.listEntries(userId, { page: 1, pageSize: 10 });
    expect(total).toBe(1);
    expect(records[0]).toMatchObject({
      id: result.entryId,
      userId,
      kind: 'credit',
      reason: 'recharge',
      reference: 'order-1',
      availableDelta: 1234,
      frozenDelta: 0,
      availableAfter: 1234,
      frozenAfter: 0,
      idempotencyKey: null,
    });
    expect(records[0]!.createdAt.toISOString()).toBe('2026-03-01T08:00:00.000Z');
  });

  it('ensureAccount creates the row once and keeps the money', async () => {
    const userId = await insertUser(handle.db);
    await ledger.ensureAccount(userId);
    expect(await findBalance(handle.db, userId)).toEqual({ availableFen: 0, frozenFen: 0 });
    await ledger.credit({ userId, amountFen: 50, reason: 'recharge' });
    await ledger.ensureAccount(userId);
    await expectConsistent(handle.db, userId, { availableFen: 50, frozenFen: 0 });
  });

  it('debits, freezes, releases and consumes with the right deltas and balances after', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 1000, reason: 'recharge' });
    expect(await ledger.debit({ userId, amountFen: 300, reason: 'purchase' })).toMatchObject({
      availableFen: 700,
      frozenFen: 0,
    });
    expect(await ledger.freeze({ userId, amountFen: 400, reason: 'supply' })).toMatchObject({
      availableFen: 300,
      frozenFen: 400,
    });
    expect(await ledger.release({ userId, amountFen: 150, reason: 'supply' })).toMatchObject({
      availableFen: 450,
      frozenFen: 250,
    });
    expect(await ledger.consume({ userId, amountFen: 250, reason: 'supply' })).toMatchObject({
      availableFen: 450,
      frozenFen: 0,
    });
    await expectConsistent(handle.db, userId, { availableFen: 450, frozenFen: 0 });
    const { records, total } = await ledger.listEntries(userId, { page: 1, pageSize: 10 });
    expect(total).toBe(5);
    // Newest first.
    expect(records.map((r) => [r.kind, r.availableDelta, r.frozenDelta, r.availableAfter, r.frozenAfter])).toEqual([
      ['consume', 0, -250, 450, 0],
      ['release', 150, -150, 450, 250],
      ['freeze', -400, 400, 300, 400],
      ['debit', -300, 0, 700, 0],
      ['credit', 1000, 0, 1000, 0],
    ]);
  });

  it('pages entries newest first with the total', async () => {
    const userId = await insertUser(handle.db);
    for (let i = 1; i <= 5; i++) await ledger.credit({ userId, amountFen: i, reason: 'recharge' });
    const first = await ledger.listEntries(userId, { page: 1, pageSize: 2 });
    const last = await ledger.listEntries(userId, { page: 3, pageSize: 2 });
    expect(first.total).toBe(5);
    expect(first.records.map((r) => r.availableDelta)).toEqual([5, 4]);
    expect(last.records.map((r) => r.availableDelta)).toEqual([1]);
    expect((await ledger.listEntries(userId, { page: 4, pageSize: 2 })).records).toEqual([]);
    // Another user's entries never show.
    const other = await insertUser(handle.db);
    expect(await ledger.listEntries(other, { page: 1, pageSize: 10 })).toEqual({ records: [], total: 0 });
  });

  it('refuses an insufficient debit or freeze and leaves no trace', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 500, reason: 'recharge' });
    await expectAppError(
      ledger.debit({ userId, amountFen: 501, reason: 'purchase', idempotencyKey: 'buy-1' }),
      'INSUFFICIENT_BALANCE',
    );
    await expectAppError(ledger.freeze({ userId, amountFen: 501, reason: 'supply' }), 'INSUFFICIENT_BALANCE');
    const state = await expectConsistent(handle.db, userId, { availableFen: 500, frozenFen: 0 });
    expect(state.entryCount).toBe(1);
    // The refused key left nothing behind: it can be used once the money is there.
    await ledger.credit({ userId, amountFen: 1, reason: 'recharge' });
    expect(await ledger.debit({ userId, amountFen: 501, reason: 'purchase', idempotencyKey: 'buy-1' })).toMatchObject({
      availableFen: 0,
      isReplay: false,
    });
  });

  it('refuses a debit on an account that has no balance row without creating one', async () => {
    const userId = await insertUser(handle.db);
    await expectAppError(ledger.debit({ userId, amountFen: 1, reason: 'purchase' }), 'INSUFFICIENT_BALANCE');
    await expectAppError(ledger.release({ userId, amountFen: 1, reason: 'supply' }), 'INSUFFICIENT_FROZEN');
    expect(await findBalance(handle.db, userId)).toBeUndefined();
    expect((await sumEntryDeltas(handle.db, userId)).entryCount).toBe(0);
  });

  it('refuses releasing or consuming more than is frozen and leaves no trace', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 1000, reason: 'recharge' });
    await ledger.freeze({ userId, amountFen: 300, reason: 'supply' });
    await expectAppError(ledger.release({ userId, amountFen: 301, reason: 'supply' }), 'INSUFFICIENT_FROZEN');
    await expectAppError(
      ledger.consume({ userId, amountFen: 301, reason: 'supply', idempotencyKey: 's-1' }),
      'INSUFFICIENT_FROZEN',
    );
    const state = await expectConsistent(handle.db, userId, { availableFen: 700, frozenFen: 300 });
    expect(state.entryCount).toBe(2);
  });

  it('replays an idempotency key: money moves once and the original entry comes back', async () => {
    const userId = await insertUser(handle.db);
    const first = await ledger.credit({ userId, amountFen: 800, reason: 'recharge', idempotencyKey: 'pay-42' });
    await ledger.debit({ userId, amountFen: 100, reason: 'purchase' });
    const again = await ledger.credit({ userId, amountFen: 800, reason: 'recharge', idempotencyKey: 'pay-42' });
    expect(first.isReplay).toBe(false);
    // Same answer as the first call, including the balance right after it.
    expect(again).toEqual({ ...first, isReplay: true });
    await expectConsistent(handle.db, userId, { availableFen: 700, frozenFen: 0 });
    const debit = await ledger.debit({ userId, amountFen: 200, reason: 'purchase', idempotencyKey: 'buy-7' });
    expect(await ledger.debit({ userId, amountFen: 200, reason: 'purchase', idempotencyKey: 'buy-7' })).toEqual({
      ...debit,
      isReplay: true,
    });
    await expectConsistent(handle.db, userId, { availableFen: 500, frozenFen: 0 });
  });

  it('a replay answers even when the balance could no longer pay', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 100, reason: 'recharge' });
    const paid = await ledger.debit({ userId, amountFen: 100, reason: 'purchase', idempotencyKey: 'buy-1' });
    expect(await ledger.debit({ userId, amountFen: 100, reason: 'purchase', idempotencyKey: 'buy-1' })).toEqual({
      ...paid,
      isReplay: true,
    });
    await expectConsistent(handle.db, userId, { availableFen: 0, frozenFen: 0 });
  });

  it('answers IDEMPOTENCY_CONFLICT when a key is reused with another kind or amount, moving nothing', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 1000, reason: 'recharge', idempotencyKey: 'k-1' });
    await expectAppError(
      ledger.credit({ userId, amountFen: 999, reason: 'recharge', idempotencyKey: 'k-1' }),
      'IDEMPOTENCY_CONFLICT',
    );
    await expectAppError(
      ledger.debit({ userId, amountFen: 1000, reason: 'recharge', idempotencyKey: 'k-1' }),
      'IDEMPOTENCY_CONFLICT',
    );
    const state = await expectConsistent(handle.db, userId, { availableFen: 1000, frozenFen: 0 });
    expect(state.entryCount).toBe(1);
    // Keys are per user: another user may use the same key.
    const other = await insertUser(handle.db);
    expect(
      await ledger.credit({ userId: other, amountFen: 5, reason: 'recharge', idempotencyKey: 'k-1' }),
    ).toMatchObject({ isReplay: false });
  });

  it('settles frozen money exactly once when release and consume share the request key', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 1000, reason: 'recharge' });
    await ledger.freeze({ userId, amountFen: 600, reason: 'supply', idempotencyKey: 'supply-9:freeze' });
    const settled = await ledger.consume({
      userId,
      amountFen: 600,
      reason: 'supply',
      idempotencyKey: 'supply-9:settle',
    });
    expect(
      await ledger.consume({ userId, amountFen: 600, reason: 'supply', idempotencyKey: 'supply-9:settle' }),
    ).toEqual({
      ...settled,
      isReplay: true,
    });
    await expectAppError(
      ledger.release({ userId, amountFen: 600, reason: 'supply', idempotencyKey: 'supply-9:settle' }),
      'IDEMPOTENCY_CONFLICT',
    );
    await expectConsistent(handle.db, userId, { availableFen: 400, frozenFen: 0 });
  });

  it('rejects amounts that are not positive safe integers of fen, and bad ids', async () => {
    const userId = await insertUser(handle.db);
    for (const amountFen of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '100' as unknown as number]) {
      await expectAppError(ledger.credit({ userId, amountFen, reason: 'recharge' }), 'BAD_REQUEST');
    }
    await expectAppError(ledger.credit({ userId: 0, amountFen: 1, reason: 'recharge' }), 'BAD_REQUEST');
    await expectAppError(ledger.credit({ userId, amountFen: 1, reason: '' }), 'BAD_REQUEST');
    await expectAppError(
      ledger.credit({ userId, amountFen: 1, reason: 'recharge', idempotencyKey: '' }),
      'BAD_REQUEST',
    );
    await expectAppError(ledger.listEntries(userId, { page: 0, pageSize: 10 }), 'BAD_REQUEST');
    expect(await findBalance(handle.db, userId)).toBeUndefined();
  });

  it('joins the caller transaction: rolled back with it, committed with it', async () => {
    const userId = await insertUser(handle.db);
    await ledger.credit({ userId, amountFen: 1000, reason: 'recharge' });
    await expect(
      handle.db.transaction(async (tx) => {
        await ledger.debit({ userId, amountFen: 400, reason: 'purchase', idempotencyKey: 'order-1' }, tx);
        expect(await ledger.getBalance(userId, tx)).toEqual({ availableFen: 600, frozenFen: 0 });
        throw new Error('proxy creation failed');
      }),
    ).rejects.toThrow('proxy creation failed');
    await expectConsistent(handle.db, userId, { availableFen: 1000, frozenFen: 0 });
    await handle.db.transaction(async (tx) => {
      await ledger.debit({ userId, amountFen: 400, reason: 'purchase', idempotencyKey: 'order-1' }, tx);
      await ledger.debit({ userId, amountFen: 100, reason: 'purchase', idempotencyKey: 'order-2' }, tx);
    });
    await expectConsistent(handle.db, userId, { availableFen: 500, frozenFen: 0 });
  });

  it('grants the 15 yuan trial credit once and stamps trial_granted_at', async () => {
    const userId = await insertUser(handle.db);
    expect(await ledger.grantTrialCredit(userId)).toEqual({ isGranted: true });
    expect(await ledger.grantTrialCredit(userId)).toEqual({ isGranted: false });
    await expectConsistent(handle.db, userId, { availableFen: TRIAL_CREDIT_FEN, frozenFen: 0 });
    const { records } = await ledger.listEntries(userId, { page: 1, pageSize: 10 });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'credit',
      reason: 'trial',
      idempotencyKey: 'trial',
      availableDelta: 1500,
    });
    const [user] = await handle.db.select({ at: users.trialGrantedAt }).from(users).where(eq(users.id, userId));
    expect(user!.at!.toISOString()).toBe(clock.now().toISOString());
    // Spending the credit does not bring it back.
    await ledger.debit({ userId, amountFen: TRIAL_CREDIT_FEN, reason: 'purchase' });
    expect(await ledger.grantTrialCredit(userId)).toEqual({ isGranted: false });
    await expectConsistent(handle.db, userId, { availableFen: 0, frozenFen: 0 });
  });

  it('refuses the trial credit for an unknown user and leaves no trace', async () => {
    await expectAppError(ledger.grantTrialCredit(987_654_321), 'NOT_FOUND');
    expect(await findBalance(handle.db, 987_654_321)).toBeUndefined();
    const rows = await handle.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, 987_654_321));
    expect(rows).toEqual([]);
  });

  describe('under concurrency', () => {
    itOnPostgres('100 concurrent debits of 1 yuan against 10 yuan: exactly 10 succeed', async () => {
      const userId = await insertUser(handle.db);
      await ledger.credit({ userId, amountFen: 1000, reason: 'recharge' });
      const results = await Promise.allSettled(
        Array.from({ length: 100 }, (_, i) =>
          ledger.debit({ userId, amountFen: 100, reason: 'purchase', reference: `order-${i}` }),
        ),
      );
      const succeeded = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(succeeded).toHaveLength(10);
      expect(failed).toHaveLength(90);
      for (const f of failed) expect(isAppError(f.reason, 'INSUFFICIENT_BALANCE'), String(f.reason)).toBe(true);
      const state = await expectConsistent(handle.db, userId, { availableFen: 0, frozenFen: 0 });
      expect(state.entryCount).toBe(11);
    });

    itOnPostgres('20 concurrent calls with the same idempotency key move money once', async () => {
      const userId = await insertUser(handle.db);
      await ledger.credit({ userId, amountFen: 5000, reason: 'recharge' });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          ledger.debit({ userId, amountFen: 300, reason: 'purchase', idempotencyKey: 'order-77' }),
        ),
      );
      expect(results.filter((r) => !r.isReplay)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
      await expectConsistent(handle.db, userId, { availableFen: 4700, frozenFen: 0 });
      // Same on an account that has no balance row yet (the row is created by exactly one of them).
      const fresh = await insertUser(handle.db);
      const credits = await Promise.all(
        Array.from({ length: 20 }, () =>
          ledger.credit({ userId: fresh, amountFen: 900, reason: 'recharge', idempotencyKey: 'pay-1' }),
        ),
      );
      expect(credits.filter((r) => !r.isReplay)).toHaveLength(1);
      await expectConsistent(handle.db, fresh, { availableFen: 900, frozenFen: 0 });
    });

    itOnPostgres('concurrent first credits on a new account all land', async () => {
      const userId = await insertUser(handle.db);
      await Promise.all(
        Array.from({ length: 25 }, (_, i) => ledger.credit({ userId, amountFen: 10 + i, reason: 'rebate' })),
      );
      const state = await expectConsistent(handle.db, userId, { availableFen: 25 * 10 + (24 * 25) / 2, frozenFen: 0 });
      expect(state.entryCount).toBe(25);
    });

    itOnPostgres('concurrent release and consume of one request settle it exactly once', async () => {
      const userId = await insertUser(handle.db);
      await ledger.credit({ userId, amountFen: 1000, reason: 'recharge' });
      await ledger.freeze({ userId, amountFen: 700, reason: 'supply' });
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? ledger.release : ledger.consume)({
            userId,
            amountFen: 700,
            reason: 'supply',
            idempotencyKey: 'supply-3:settle',
          }),
        ),
      );
      const moved = results.filter((r) => r.status === 'fulfilled' && !r.value.isReplay);
      expect(moved).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(isAppError(r.reason, 'IDEMPOTENCY_CONFLICT'), String(r.reason)).toBe(true);
      }
      const state = await expectConsistent(handle.db, userId);
      expect(state.frozenFen).toBe(0);
      expect([300, 1000]).toContain(state.availableFen);
      expect(state.entryCount).toBe(3);
    });

    itOnPostgres('10 concurrent trial grants credit 15 yuan once', async () => {
      const userId = await insertUser(handle.db);
      const results = await Promise.all(Array.from({ length: 10 }, () => ledger.grantTrialCredit(userId)));
      expect(results.filter((r) => r.isGranted)).toHaveLength(1);
      const state = await expectConsistent(handle.db, userId, { availableFen: TRIAL_CREDIT_FEN, frozenFen: 0 });
      expect(state.entryCount).toBe(1);
    });

    it('serializes concurrent calls on any driver (10 debits against 5, trial twice at once)', async () => {
      const userId = await insertUser(handle.db);
      await ledger.credit({ userId, amountFen: 500, reason: 'recharge' });
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => ledger.debit({ userId, amountFen: 100, reason: 'purchase' })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      const granted = await Promise.all([ledger.grantTrialCredit(userId), ledger.grantTrialCredit(userId)]);
      expect(granted.filter((r) => r.isGranted)).toHaveLength(1);
      await expectConsistent(handle.db, userId, { availableFen: TRIAL_CREDIT_FEN, frozenFen: 0 });
    });
  });
});
