import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rechargeFeeFen, type TPaymentStatus } from '@proxy/contract';
import { payOrders, users } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TMemoryMailer, type TTestApp } from '../../../test/helpers';
import { sumEntryDeltas } from '../ledger/ledger.repository';
import { balanceFen, createUser, request } from '../proxies/proxies-test-kit';
import { receiveNotification, reconcileStaleOrders, seedChargeOptions } from './payments.service';
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

const stepArb: fc.Arbitrary<TStep> = fc.oneof(
  fc.record({ type: fc.constant('charge' as const), yuan: fc.constantFrom(1, 10, 50, 100, 123) }),
  fc.record({ type: fc.constant('pay' as const), index: fc.nat(), times: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ type: fc.constant('fail' as const), index: fc.nat() }),
  fc.record({ type: fc.constant('cancel' as const), index: fc.nat() }),
  fc.record({ type: fc.constant('timeout' as const), index: fc.nat() }),
);

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
            const signed = sandbox.notificationFor({ id: order.id, priceFen: order.amountFen + rechargeFeeFen(order.amountFen) }, 'success');
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
              sandbox.notificationFor({ id: order.id, priceFen: order.amountFen + rechargeFeeFen(order.amountFen) }, 'failure'),
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
          const [row] = await t.db.db.select({ total: users.totalRechargeFen }).from(users).where(eq(users.id, user.userId));
          expect(row.total).toBe(model.totalFen);
          const stored = await t.db.db.select({ id: payOrders.id, status: payOrders.status }).from(payOrders).where(eq(payOrders.userId, user.userId));
          expect(new Map(stored.map((o) => [o.id, o.status]))).toEqual(new Map(orders.map((o) => [o.id, o.status])));
        }
      }),
      { numRuns: 12, seed: Number(process.env.FUZZ_SEED ?? 20261122) },
    );
  });
});
