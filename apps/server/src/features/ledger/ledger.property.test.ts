import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, type TDbHandle } from '@proxy/db';
import type { TErrorName } from '@proxy/contract';
import { createFakeClock, createTestDatabase } from '../../../test/helpers';
import { findLedgerViolations } from '../../../test/ledger-invariants';
import { isAppError } from '../../lib/app-error';
import { findBalance, sumEntryDeltas } from './ledger.repository';
import { createLedgerService, type TLedgerKind, type TLedgerOp, type TLedgerService } from './ledger.service';

// Test-only: a bare users row (the ledger needs nothing else from the account).
async function insertUser(db: TDbHandle['db']): Promise<number> {
  const tag = randomUUID().replaceAll('-', '');
  const [row] = await db
    .insert(users)
    .values({
      username: `p${tag.slice(0, 16)}`,
      email: `${tag}@example.test`,
      apiKey: `key-${tag}`,
      inviteCode: tag.slice(0, 12),
    })
    .returning({ id: users.id });
  return row!.id;
}

const KINDS: readonly TLedgerKind[] = ['credit', 'debit', 'freeze', 'release', 'consume'];

/**
 * One generated step: a new operation (maybe keyed from a small pool, so keys
 * collide), or a resend of an earlier one, as is (a retry) or with its kind or
 * amount changed (a key reused for something else).
 */
type TStep =
  | { type: 'op'; kind: TLedgerKind; amountFen: number; key: string | null }
  | { type: 'resend'; index: number; change: 'none' | 'kind' | 'amount' };

const stepArb: fc.Arbitrary<TStep> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('op' as const),
      // Credits twice as likely, so accounts have money to spend, freeze and settle.
      kind: fc.constantFrom<TLedgerKind>('credit', ...KINDS),
      // Small amounts next to credits of the same range, so both successes and refusals are common.
      amountFen: fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.constantFrom(1, 100, 1500)),
      key: fc.option(fc.constantFrom('k1', 'k2', 'k3', 'k4', 'k5', 'k6'), { freq: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('resend' as const),
      index: fc.nat(),
      change: fc.constantFrom('none' as const, 'none' as const, 'kind' as const, 'amount' as const),
    }),
  },
);

// The reference model: two integers and the keyed operations that went through.
type TModel = {
  availableFen: number;
  frozenFen: number;
  keyed: Map<string, { kind: TLedgerKind; amountFen: number; availableAfter: number; frozenAfter: number }>;
};

type TExpected =
  | { type: 'moved' }
  | { type: 'replay'; availableAfter: number; frozenAfter: number }
  | { type: 'error'; name: TErrorName };

// What the ledger must do with the op, and the model's new state when it moves money.
function predict(model: TModel, kind: TLedgerKind, amountFen: number, key: string | null): TExpected {
  if (key !== null) {
    const previous = model.keyed.get(key);
    if (previous) {
      if (previous.kind !== kind || previous.amountFen !== amountFen)
        return { type: 'error', name: 'IDEMPOTENCY_CONFLICT' };
      return { type: 'replay', availableAfter: previous.availableAfter, frozenAfter: previous.frozenAfter };
    }
  }
  const next = move(model, kind, amountFen);
  if (next.availableFen < 0) return { type: 'error', name: 'INSUFFICIENT_BALANCE' };
  if (next.frozenFen < 0) return { type: 'error', name: 'INSUFFICIENT_FROZEN' };
  return { type: 'moved' };
}

function move(model: TModel, kind: TLedgerKind, amountFen: number): { availableFen: number; frozenFen: number } {
  const { availableFen: a, frozenFen: f } = model;
  switch (kind) {
    case 'credit':
      return { availableFen: a + amountFen, frozenFen: f };
    case 'debit':
      return { availableFen: a - amountFen, frozenFen: f };
    case 'freeze':
      return { availableFen: a - amountFen, frozenFen: f + amountFen };
    case 'release':
      return { availableFen: a + amountFen, frozenFen: f - amountFen };
    case 'consume':
      return { availableFen: a, frozenFen: f - amountFen };
  }
}

function runOp(ledger: TLedgerService, kind: TLedgerKind, op: TLedgerOp) {
  return ledger[kind](op);
}

describe('balance ledger against a model (fast-check)', () => {
  let handle: TDbHandle;
  let ledger: TLedgerService;

  beforeAll(async () => {
    handle = await createTestDatabase();
    ledger = createLedgerService({ db: handle.db, clock: createFakeClock() });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('random credit/debit/freeze/release/consume sequences keep balance = model = sum of entries, never negative', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25, size: 'max' }), async (steps) => {
        runs++;
        // A new user per run: every run starts from an empty account.
        const userId = await insertUser(handle.db);
        const model: TModel = { availableFen: 0, frozenFen: 0, keyed: new Map() };
        const sent: { kind: TLedgerKind; amountFen: number; key: string | null }[] = [];
        let entryCount = 0;
        for (const step of steps) {
          let kind: TLedgerKind;
          let amountFen: number;
          let key: string | null;
          if (step.type === 'resend') {
            // A retried request (replay, or a second try after a refusal), or its key reused for another op.
            if (sent.length === 0) continue;
            ({ kind, amountFen, key } = sent[step.index % sent.length]!);
            if (step.change === 'kind') kind = KINDS[(KINDS.indexOf(kind) + 1 + (step.index % 4)) % KINDS.length]!;
            if (step.change === 'amount') amountFen += 1 + (step.index % 50);
          } else {
            ({ kind, amountFen, key } = step);
          }
          sent.push({ kind, amountFen, key });
          const expected = predict(model, kind, amountFen, key);
          const outcome = await runOp(ledger, kind, {
            userId,
            amountFen,
            reason: 'model',
            ...(key === null ? {} : { idempotencyKey: key }),
          }).then(
            (value) => ({ isOk: true as const, value }),
            (error: unknown) => ({ isOk: false as const, error }),
          );
          if (expected.type === 'error') {
            expect(outcome.isOk, `${kind} ${amountFen} ${key} should fail with ${expected.name}`).toBe(false);
            if (!outcome.isOk) expect(isAppError(outcome.error, expected.name), String(outcome.error)).toBe(true);
          } else {
            if (!outcome.isOk) throw outcome.error;
            if (expected.type === 'replay') {
              expect(outcome.value).toMatchObject({
                isReplay: true,
                availableFen: expected.availableAfter,
                frozenFen: expected.frozenAfter,
              });
            } else {
              const next = move(model, kind, amountFen);
              model.availableFen = next.availableFen;
              model.frozenFen = next.frozenFen;
              if (key !== null)
                model.keyed.set(key, {
                  kind,
                  amountFen,
                  availableAfter: next.availableFen,
                  frozenAfter: next.frozenFen,
                });
              entryCount++;
              expect(outcome.value).toMatchObject({ isReplay: false, ...next });
            }
          }
          // The invariants, after every step.
          const balance = (await findBalance(handle.db, userId)) ?? { availableFen: 0, frozenFen: 0 };
          const sums = await sumEntryDeltas(handle.db, userId);
          expect(balance).toEqual({ availableFen: model.availableFen, frozenFen: model.frozenFen });
          expect({ availableFen: sums.availableFen, frozenFen: sums.frozenFen }).toEqual(balance);
          expect(sums.entryCount).toBe(entryCount);
          expect(balance.availableFen).toBeGreaterThanOrEqual(0);
          expect(balance.frozenFen).toBeGreaterThanOrEqual(0);
        }
        // The database-wide invariants (the same check the fault tests run after a crash).
        expect(await findLedgerViolations(handle.db)).toEqual([]);
      }),
      { numRuns: 30 },
    );
    expect(runs).toBeGreaterThanOrEqual(30);
  });
});
