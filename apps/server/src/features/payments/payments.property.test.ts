import fc from 'fast-check';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rechargeFeeFen, type TPaymentStatus } from '@proxy/contract';
import { balances, payOrders, rebates, users } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TMemoryMailer, type TTestApp } from '../../../test/helpers';
import { findLedgerViolations } from '../../../test/ledger-invariants';
import { registerUser } from '../auth/auth-test-kit';
import { createRebatePayoutJob } from '../../jobs/token-jobs';
import { sumEntryDeltas } from '../ledger/ledger.repository';
import { balanceFen, createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';
import { seedChargeOptions } from './payments-charge.service';
import { receiveNotification, reconcileStaleOrders } from './payments-settle.service';
import type { createSandboxProvider } from './providers/sandbox';

// The ledger's model extended with recharges: random charges, notifications
// (genuine, replayed, failed), cancels and timeouts, checked after every step
// against a model of two numbers and the orders' states.
type TStep =
  | { type: 'charge'; yuan: number }
  | { type: 'pay'; index: number; times: number }
  | { type: 'fail'; index: number }
  | { type: 'cancel'; index: number }
  | { type: 'timeout'; index: number };

// ... and with the operator's side: reversals (with debt the next top-up pays
// first, and the invitee's rebate cancelled or taken back), balance
// adjustments (retried with the same request id), and rebate payouts.
type TOperatorStep =
  | TStep
  | { type: 'reverse'; index: number; times: number }
  | { type: 'adjust'; kind: 'credit' | 'debit'; yuan: number; times: number }
  | { type: 'payout' };

const stepArb: fc.Arbitrary<TStep> = fc.oneof(
  fc.record({ type: fc.constant('charge' as const), yuan: fc.constantFrom(1, 10, 50, 100, 123) }),
  fc.record({ type: fc.constant('pay' as const), index: fc.nat(), times: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ type: fc.constant('fail' as const), index: fc.nat() }),
  fc.record({ type: fc.constant('cancel' as const), index: fc.nat() }),
  fc.record({ type: fc.constant('timeout' as const), index: fc.nat() }),
);

const operatorStepArb: fc.Arbitrary<TOperatorStep> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('charge' as const), yuan: fc.constantFrom(1, 10, 50, 100, 123) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ type: fc.constant('pay' as const), index: fc.nat(), times: fc.integer({ min: 1, max: 2 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('reverse' as const),
      index: fc.nat(),
      times: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('adjust' as const),
      kind: fc.constantFrom('credit' as const, 'debit' as const),
      yuan: fc.constantFrom(1, 5, 20, 200),
      times: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'payout' as const }) },
);

// The rebate rules of a fresh install (5 %, from 10 yuan, at most 100 yuan), written out: the model does not use the code it checks.
const modelRebateFen = (amountFen: number) =>
  amountFen < 1000 ? 0 : Math.min(Math.floor((amountFen * 5) / 100), 10_000);

describe('recharges against a model', () => {
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let runs = 0;

  beforeAll(async () => {
    mailer = createMemoryMailer();
    t = await createTestApp({ mailer, config: { PAY_SANDBOX: 'true' } });
    await seedChargeOptions(t.deps);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps balance, total_balance, order states and the ledger equal to the model', async () => {
    const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
        runs += 1;
        const user = await createUser(t.app, mailer, `model${runs}`);
        const model = { balanceFen: await balanceFen(t.deps, user.userId), totalFen: 0 };
        const orders: { id: string; amountFen: number; status: TPaymentStatus }[] = [];
        for (const step of steps) {
          const order = orders.length ? orders[('index' in step ? step.index : 0) % orders.length] : undefined;
          if (step.type === 'charge') {
            const res = await request(t.app, 'POST', `/pay/charge/sandbox/${step.yuan}`, { token: user.token });
            expect(res.json().code, res.body).toBe(0);
            orders.push({ id: res.json().data.order_id, amountFen: step.yuan * 100, status: 'pending' });
          } else if (!order) {
            continue;
          } else if (step.type === 'pay') {
            const signed = sandbox.notificationFor(
              { id: order.id, priceFen: order.amountFen + rechargeFeeFen(order.amountFen) },
              'success',
            );
            for (let i = 0; i < step.times; i++) await receiveNotification(t.deps, 'sandbox', signed, '127.0.0.1');
            if (order.status !== 'success') {
              model.balanceFen += order.amountFen;
              model.totalFen += order.amountFen;
              order.status = 'success';
            }
          } else if (step.type === 'fail') {
            await receiveNotification(
              t.deps,
              'sandbox',
              sandbox.notificationFor(
                { id: order.id, priceFen: order.amountFen + rechargeFeeFen(order.amountFen) },
                'failure',
              ),
              '127.0.0.1',
            );
            if (order.status === 'pending') order.status = 'failure';
          } else if (step.type === 'cancel') {
            const res = await request(t.app, 'POST', `/pay/cancel/${order.id}`, { token: user.token });
            expect(res.json().code).toBe(order.status === 'pending' ? 0 : 5002);
            if (order.status === 'pending') order.status = 'cancelled';
          } else {
            await t.db.db
              .update(payOrders)
              .set({ expiresAt: new Date(Date.now() - 1000) })
              .where(eq(payOrders.id, order.id));
            await reconcileStaleOrders(t.deps);
            if (order.status === 'pending') order.status = 'timeout';
          }
          expect(await balanceFen(t.deps, user.userId)).toBe(model.balanceFen);
          expect((await sumEntryDeltas(t.db.db, user.userId)).availableFen).toBe(model.balanceFen);
          const [row] = await t.db.db
            .select({ total: users.totalRechargeFen })
            .from(users)
            .where(eq(users.id, user.userId));
          expect(row.total).toBe(model.totalFen);
          const stored = await t.db.db
            .select({ id: payOrders.id, status: payOrders.status })
            .from(payOrders)
            .where(eq(payOrders.userId, user.userId));
          expect(new Map(stored.map((o) => [o.id, o.status]))).toEqual(new Map(orders.map((o) => [o.id, o.status])));
        }
        // The database-wide invariants (the same check the fault tests run after a crash).
        expect(await findLedgerViolations(t.db.db)).toEqual([]);
      }),
      { numRuns: 12, seed: Number(process.env.FUZZ_SEED ?? 20261122) },
    );
  });

  it('keeps both ledgers, debt, total_balance and rebates equal to the model through reversals, adjustments and payouts', async () => {
    const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
    const oper: TTestUser = await createAdmin(t.app, t.deps, mailer, 'modeloper');
    const payout = createRebatePayoutJob(t.deps);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operatorStepArb, { minLength: 1, maxLength: 14 }), async (steps) => {
        run += 1;
        // A fresh inviter and invitee per run.
        const inviter = await createUser(t.app, mailer, `inviter${run}`);
        const code = (await request(t.app, 'GET', '/invite/info', { token: inviter.token })).json().data.invite_code;
        const token = await registerUser(t.app, mailer, {
          email: `invitee${run}@example.com`,
          username: `invitee${run}`,
          invite_code: code,
        });
        const userId = (await request(t.app, 'GET', '/user/info', { token })).json().data.user_id as number;
        const model = {
          balanceFen: await balanceFen(t.deps, userId),
          debtFen: 0,
          totalFen: 0,
          inviterFen: await balanceFen(t.deps, inviter.userId),
        };
        type TRebate = { fen: number; status: 'pending' | 'success' | 'failed' };
        const orders: {
          id: string;
          amountFen: number;
          isPaid: boolean;
          isReversed: boolean;
          rebate: TRebate | null;
        }[] = [];
        let adjustments = 0;
        for (const step of steps) {
          const order = orders.length ? orders[('index' in step ? step.index : 0) % orders.length] : undefined;
          if (step.type === 'charge') {
            const res = await request(t.app, 'POST', `/pay/charge/sandbox/${step.yuan}`, { token });
            expect(res.json().code, res.body).toBe(0);
            orders.push({
              id: res.json().data.order_id,
              amountFen: step.yuan * 100,
              isPaid: false,
              isReversed: false,
              rebate: null,
            });
          } else if (step.type === 'pay' && order) {
            const signed = sandbox.notificationFor(
              { id: order.id, priceFen: order.amountFen + rechargeFeeFen(order.amountFen) },
              'success',
            );
            for (let i = 0; i < step.times; i++) await receiveNotification(t.deps, 'sandbox', signed, '127.0.0.1');
            if (!order.isPaid) {
              order.isPaid = true;
              model.balanceFen += order.amountFen;
              model.totalFen += order.amountFen;
              // A debt left by a reversal is paid first, as far as the balance goes.
              const paid = Math.min(model.debtFen, model.balanceFen);
              model.balanceFen -= paid;
              model.debtFen -= paid;
              const fen = modelRebateFen(order.amountFen);
              if (fen > 0) order.rebate = { fen, status: 'pending' };
            }
          } else if (step.type === 'reverse' && order) {
            for (let i = 0; i < step.times; i++) {
              const res = await request(t.app, 'POST', `/admin/payments/orders/${order.id}/reverse`, {
                token: oper.token,
                body: { reason: 'Refunded outside' },
              });
              if (!order.isPaid || order.isReversed) {
                expect(res.json().code, res.body).toBe(5006);
                continue;
              }
              expect(res.json().code, res.body).toBe(0);
              order.isReversed = true;
              const taken = Math.min(model.balanceFen, order.amountFen);
              model.balanceFen -= taken;
              model.debtFen += order.amountFen - taken;
              model.totalFen -= order.amountFen;
              if (order.rebate?.status === 'success') model.inviterFen -= Math.min(order.rebate.fen, model.inviterFen);
              if (order.rebate) order.rebate.status = 'failed';
            }
          } else if (step.type === 'adjust') {
            adjustments += 1;
            const body = {
              kind: step.kind,
              amount: String(step.yuan),
              reason: 'Model adjustment',
              request_id: `model-${run}-${adjustments}`,
            };
            const fen = step.yuan * 100;
            const isRefused = step.kind === 'debit' && fen > model.balanceFen;
            for (let i = 0; i < step.times; i++) {
              const res = await request(t.app, 'POST', `/admin/users/${userId}/balance`, { token: oper.token, body });
              expect(res.json().code, res.body).toBe(isRefused ? 2001 : 0);
            }
            if (!isRefused) model.balanceFen += step.kind === 'credit' ? fen : -fen;
          } else if (step.type === 'payout') {
            await payout.runOnce();
            for (const o of orders) {
              if (o.rebate?.status !== 'pending') continue;
              o.rebate.status = 'success';
              model.inviterFen += o.rebate.fen;
            }
          }
          // Both accounts: balance = model = sum of entries; debt and total as modelled; rebates in their modelled states.
          expect(await balanceFen(t.deps, userId)).toBe(model.balanceFen);
          expect((await sumEntryDeltas(t.db.db, userId)).availableFen).toBe(model.balanceFen);
          expect(await balanceFen(t.deps, inviter.userId)).toBe(model.inviterFen);
          expect((await sumEntryDeltas(t.db.db, inviter.userId)).availableFen).toBe(model.inviterFen);
          const [row] = await t.db.db
            .select({ total: users.totalRechargeFen, debt: balances.debtFen })
            .from(users)
            .leftJoin(balances, eq(balances.userId, users.id))
            .where(eq(users.id, userId));
          expect({ total: row.total, debt: row.debt ?? 0 }).toEqual({ total: model.totalFen, debt: model.debtFen });
          const ids = orders.map((o) => o.id);
          const stored = ids.length
            ? await t.db.db
                .select({ orderId: rebates.orderId, fen: rebates.rebateFen, status: rebates.status })
                .from(rebates)
                .where(inArray(rebates.orderId, ids))
            : [];
          const expected = orders
            .filter((o) => o.rebate)
            .map((o) => ({ orderId: o.id, fen: o.rebate!.fen, status: o.rebate!.status }));
          expect(new Set(stored.map((r) => JSON.stringify(r)))).toEqual(
            new Set(expected.map((r) => JSON.stringify(r))),
          );
        }
        expect(await findLedgerViolations(t.db.db)).toEqual([]);
      }),
      { numRuns: 10, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
    expect(run).toBeGreaterThanOrEqual(10);
  });
});
