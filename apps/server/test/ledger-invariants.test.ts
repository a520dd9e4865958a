import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDbHandle, TTx } from '@proxy/db';
import { createFakeClock, createTestDatabase } from './helpers';
import { findLedgerViolations } from './ledger-invariants';
import { createLedgerService } from '../src/features/ledger/ledger.service';

// The shared invariant check must see each kind of half-written state: every
// case writes one, inside a transaction that is rolled back afterwards.
describe('ledger invariants', () => {
  let handle: TDbHandle;
  let userId: number;

  beforeAll(async () => {
    handle = await createTestDatabase();
    const { rows } = (await handle.db.execute(
      sql`INSERT INTO users (username, email, api_key, invite_code) VALUES ('inv1', 'inv1@example.test', 'key-inv1', 'invinv1') RETURNING id`,
    )) as unknown as { rows: { id: number }[] };
    userId = Number(rows[0]!.id);
    const ledger = createLedgerService({ db: handle.db, clock: createFakeClock() });
    await ledger.credit({ userId, amountFen: 10_000, reason: 'recharge-test' });
  });
  afterAll(async () => {
    await handle?.close();
  });

  // The violations seen after `corrupt`, with the change undone.
  async function violationsAfter(corrupt: (tx: TTx) => Promise<unknown>): Promise<string[]> {
    let found: string[] = [];
    const rollback = new Error('rollback');
    await handle.db
      .transaction(async (tx) => {
        await corrupt(tx);
        found = await findLedgerViolations(tx);
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
    return found;
  }

  const names = (found: string[]) => [...new Set(found.map((line) => line.slice(0, line.indexOf(':'))))];

  it('holds on a consistent database', async () => {
    expect(await findLedgerViolations(handle.db)).toEqual([]);
  });

  it('sees a balance that is not the sum of its entries', async () => {
    const found = await violationsAfter((tx) =>
      tx.execute(sql`UPDATE balances SET available_fen = available_fen + 1 WHERE user_id = ${userId}`),
    );
    expect(names(found)).toEqual(['balance = sum of entries', 'balance = newest entry']);
  });

  it('sees an order without its debit, and a debit without its order', async () => {
    const order = await violationsAfter((tx) =>
      tx.execute(sql`INSERT INTO proxy_orders (user_id, action, product, category, billing, quantity, amount, cost_fen, idempotency_key)
                     VALUES (${userId}, 'purchase', 'dynamic', 'isp', 'traffic', 0, '1', 500, 'purchase:k1')`),
    );
    expect(names(order)).toEqual(['paid proxy orders = their debits', 'keyed order has its debit']);
    const debit = await violationsAfter((tx) =>
      createLedgerService({ db: handle.db, clock: createFakeClock() }).debit(
        { userId, amountFen: 500, reason: 'purchase', idempotencyKey: 'purchase:k2' },
        tx,
      ),
    );
    expect(names(debit)).toEqual(['paid proxy orders = their debits', 'keyed order debit has its order']);
  });

  it('sees a purchase order without its tokens', async () => {
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`INSERT INTO proxy_orders (user_id, action, product, category, billing, quantity, amount, cost_fen)
                           VALUES (${userId}, 'purchase', 'dynamic', 'isp', 'traffic', 1, '1', 500)`);
      await createLedgerService({ db: handle.db, clock: createFakeClock() }).debit(
        { userId, amountFen: 500, reason: 'purchase' },
        tx,
      );
    });
    expect(names(found)).toEqual(['purchase order has its tokens']);
  });

  it('sees a paid top-up without its credit, and a credit twice', async () => {
    const insertOrder = (tx: TTx, status: string) =>
      tx.execute(sql`INSERT INTO pay_orders (id, user_id, method, mode, status, amount_fen, fee_fen, price_fen, value_fen, expires_at)
                     VALUES ('T1', ${userId}, 'sandbox', 'redirect', ${status}, 1000, 0, 1000, 1000, now())`);
    expect(names(await violationsAfter((tx) => insertOrder(tx, 'success')))).toEqual([
      'successful pay order credited once',
    ]);
    const twice = await violationsAfter(async (tx) => {
      await insertOrder(tx, 'success');
      const ledger = createLedgerService({ db: handle.db, clock: createFakeClock() });
      await ledger.credit(
        { userId, amountFen: 1000, reason: 'recharge', reference: 'T1', idempotencyKey: 'pay:sandbox:a' },
        tx,
      );
      await ledger.credit(
        { userId, amountFen: 1000, reason: 'recharge', reference: 'T1', idempotencyKey: 'pay:sandbox:b' },
        tx,
      );
    });
    expect(names(twice)).toEqual(['successful pay order credited once']);
  });

  it('sees a reversal without its debit, and a debit without its reversal', async () => {
    const paid = async (tx: TTx, reversed: boolean) => {
      await tx.execute(sql`INSERT INTO pay_orders (id, user_id, method, mode, status, amount_fen, fee_fen, price_fen, value_fen, expires_at, reversed_at, reversed_fen)
                           VALUES ('R1', ${userId}, 'sandbox', 'redirect', 'success', 1000, 0, 1000, 1000, now(), ${reversed ? new Date() : null}, ${reversed ? 1000 : null})`);
      await createLedgerService({ db: handle.db, clock: createFakeClock() }).credit(
        { userId, amountFen: 1000, reason: 'recharge', reference: 'R1', idempotencyKey: 'pay:sandbox:r1' },
        tx,
      );
    };
    expect(await violationsAfter((tx) => paid(tx, false))).toEqual([]);
    expect(names(await violationsAfter((tx) => paid(tx, true)))).toEqual(['reversed order taken back once']);
    const debitOnly = await violationsAfter(async (tx) => {
      await paid(tx, false);
      await createLedgerService({ db: handle.db, clock: createFakeClock() }).debit(
        { userId, amountFen: 1000, reason: 'reversal', reference: 'R1', idempotencyKey: 'reverse:R1' },
        tx,
      );
    });
    expect(names(debitOnly)).toEqual(['reversed order taken back once']);
  });

  it('sees a supply fee released twice, or released and consumed', async () => {
    const found = await violationsAfter(async (tx) => {
      const { rows } = (await tx.execute(
        sql`INSERT INTO supply_requests (user_id, type, product, network, amount, region, wait_days, cost_fen, contact_email, status, deadline_at)
            VALUES (${userId}, 'traffic', 'dynamic', 'HTTP', 1, 'US', 1, 300, 'a@example.test', 'cancelled', now()) RETURNING id`,
      )) as unknown as { rows: { id: number }[] };
      const reference = `supply:${rows[0]!.id}`;
      const ledger = createLedgerService({ db: handle.db, clock: createFakeClock() });
      await ledger.freeze({ userId, amountFen: 300, reason: 'supply', reference }, tx);
      await ledger.release({ userId, amountFen: 150, reason: 'supply', reference }, tx);
      await ledger.consume({ userId, amountFen: 150, reason: 'supply', reference }, tx);
    });
    expect(names(found)).toEqual(['supply fee frozen once, released or consumed at most once']);
  });

  it('sees a paid rebate without its payment', async () => {
    const found = await violationsAfter((tx) =>
      tx.execute(sql`INSERT INTO rebates (order_id, inviter_id, invitee_id, charge_fen, rebate_fen, rule_version, status, due_at)
                     VALUES ('R1', ${userId}, ${userId}, 1000, 50, 1, 'success', now())`),
    );
    expect(names(found)).toEqual(['rebate paid at most once']);
  });
});
