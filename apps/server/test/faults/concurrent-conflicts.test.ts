import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { proxyTokens } from '@proxy/db';
import { createMemoryMailer, createTestApp, createTestDatabase, describeOnPostgres, type TTestApp } from '../helpers';
import { findLedgerViolations } from '../ledger-invariants';
import {
  balanceFen,
  buyOk,
  createAdmin,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../../src/features/proxies/proxies-test-kit';

// Money calls that lock the same rows from opposite ends at the same time, on
// a real PostgreSQL pool: two customers renewing the same two tokens each in
// opposite orders, while two operators adjust both customers' balances in
// opposite orders. Every call either goes through or answers the clear 409
// DATABASE_CONFLICT (nothing changed); none answers a 5xx, and the money adds up.
describeOnPostgres(
  'money calls locking rows in opposite orders at once (needs PostgreSQL: real row locks and deadlock detection)',
  () => {
    const mailer = createMemoryMailer();
    let t: TTestApp;
    let users: TTestUser[];
    let operators: TTestUser[];

    beforeAll(async () => {
      const database = await createTestDatabase({ poolSize: 12 });
      t = await createTestApp({ database, mailer });
      await seedProxyStartup(t.deps);
      users = [await createUser(t.app, mailer, 'xia'), await createUser(t.app, mailer, 'yan')];
      operators = [
        await createAdmin(t.app, t.deps, mailer, 'op-one'),
        await createAdmin(t.app, t.deps, mailer, 'op-two'),
      ];
      for (const user of users) await creditFen(t.deps, user.userId, 100_000);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('opposite-order renewals and adjustments end each in a success or a 409 DATABASE_CONFLICT, never a 5xx, and the ledger adds up', async () => {
      const ipBody = { network: 'HTTP', country_id: 'us', quantity: 2, days: 1 };
      const tokensOf = new Map<number, number[]>();
      for (const user of users)
        tokensOf.set(
          user.userId,
          (await buyOk(t.app, user.token, '/token/static/ip', ipBody)).tokens.map((x) => x.token_id),
        );
      const expiries = async (ids: number[]) =>
        (await t.db.db.select().from(proxyTokens).where(inArray(proxyTokens.id, ids))).map(
          (r) => [r.id, r.expiresAt.getTime()] as const,
        );
      const allIds = [...tokensOf.values()].flat();
      const expiryBefore = new Map(await expiries(allIds));
      const before = new Map<number, number>();
      for (const user of users) before.set(user.userId, await balanceFen(t.deps, user.userId));

      type TCall = { kind: 'renew' | 'adjust'; userId: number; fen: number; res: Awaited<ReturnType<typeof request>> };
      const renew = async (user: TTestUser, ids: number[]): Promise<TCall> => {
        const res = await request(t.app, 'POST', '/token/ip/renew', {
          token: user.token,
          body: { token_ids: ids, days: 1, payway: 'balance' },
        });
        return {
          kind: 'renew',
          userId: user.userId,
          fen: res.json().code === 0 ? -Math.round(res.json().data.cost * 100) : 0,
          res,
        };
      };
      const adjust = async (operator: TTestUser, user: TTestUser, n: number): Promise<TCall> => {
        const kind = n % 2 === 0 ? 'credit' : 'debit';
        const body = {
          kind,
          amount: '1.00',
          reason: 'Opposite-order test',
          request_id: `opposite-${operator.userId}-${user.userId}-${n}`,
        };
        const res = await request(t.app, 'POST', `/admin/users/${user.userId}/balance`, {
          token: operator.token,
          body,
        });
        return {
          kind: 'adjust',
          userId: user.userId,
          fen: res.json().code === 0 ? (kind === 'credit' ? 100 : -100) : 0,
          res,
        };
      };
      // Each actor runs its calls one after another; the actors run at once.
      const sequence = async (steps: (() => Promise<TCall>)[]) => {
        const done: TCall[] = [];
        for (const step of steps) done.push(await step());
        return done;
      };
      const rounds = [0, 1, 2, 3];
      const actors: Promise<TCall[]>[] = [];
      for (const user of users) {
        const [a, b] = tokensOf.get(user.userId)!;
        actors.push(sequence(rounds.map(() => () => renew(user, [a!, b!]))));
        actors.push(sequence(rounds.map(() => () => renew(user, [b!, a!]))));
      }
      const [one, two] = operators;
      actors.push(
        sequence(rounds.flatMap((n) => [() => adjust(one!, users[0]!, n), () => adjust(one!, users[1]!, n)])),
      );
      actors.push(
        sequence(rounds.flatMap((n) => [() => adjust(two!, users[1]!, n), () => adjust(two!, users[0]!, n)])),
      );
      const calls = (await Promise.all(actors)).flat();

      for (const call of calls) {
        expect(call.res.statusCode, call.res.body).toBeLessThan(500);
        const body = call.res.json();
        if (body.code !== 0)
          expect(body, call.res.body).toEqual({
            code: 409,
            msg: expect.any(String),
            data: { error: 'DATABASE_CONFLICT' },
          });
      }
      // The balances moved by exactly what the successful calls say, once each.
      for (const user of users) {
        const moved = calls.filter((c) => c.userId === user.userId).reduce((sum, c) => sum + c.fen, 0);
        expect(await balanceFen(t.deps, user.userId)).toBe(before.get(user.userId)! + moved);
        const renewed = calls.filter(
          (c) => c.userId === user.userId && c.kind === 'renew' && c.res.json().code === 0,
        ).length;
        for (const [id, expiry] of await expiries(tokensOf.get(user.userId)!))
          expect(expiry).toBe(expiryBefore.get(id)! + renewed * 86_400_000);
      }
      // Renewals retry a deadlock by themselves: all of them went through.
      expect(calls.filter((c) => c.kind === 'renew').map((c) => c.res.json().code)).toEqual(Array(16).fill(0));
      expect(await findLedgerViolations(t.db.db)).toEqual([]);
      expect((await t.db.db.select().from(proxyTokens).where(eq(proxyTokens.userId, users[0]!.userId))).length).toBe(2);
    });
  },
);
