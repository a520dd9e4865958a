import { TRIAL_CREDIT_FEN, type TValidationKey } from '@proxy/contract';
import type { LEDGER_KINDS, TDbOrTx, TTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import {
  changeDebt,
  findBalance,
  findDebt,
  findEntryByIdempotencyKey,
  findTrialGrantedAt,
  insertBalanceIfMissing,
  insertEntry,
  listEntriesPage,
  lockBalance,
  stampTrialGranted,
  updateBalance,
  type TEntryFilters,
  type TLedgerEntryRow,
} from './ledger.repository';

/** A kind of money movement. */
export type TLedgerKind = (typeof LEDGER_KINDS)[number];

/** One money operation: a positive amount of fen for one user. */
export type TLedgerOp = {
  userId: number;
  /** Positive safe integer of fen. */
  amountFen: number;
  /** Why: trial, recharge, purchase, renew, supply, rebate, adjustment... */
  reason: string;
  /** What it is about (order id, token id...). */
  reference?: string;
  /** Same key again (per user) moves nothing and answers the original entry. */
  idempotencyKey?: string;
};

/**
 * Outcome of an operation: the entry and the balance right after it. A replay
 * answers the original entry and the balance right after the original.
 */
export type TLedgerResult = { entryId: number; availableFen: number; frozenFen: number; isReplay: boolean };

/** One ledger entry as the service hands it out. */
export type TLedgerEntry = TLedgerEntryRow;

/** The user's current balances in fen. */
export type TBalance = { availableFen: number; frozenFen: number };

/** Idempotency key of the trial credit (one per user). */
export const TRIAL_IDEMPOTENCY_KEY = 'trial';
/** Reason recorded on the trial credit entry. */
export const TRIAL_REASON = 'trial';

// How each kind moves the two balances, per fen of the amount.
const EFFECTS: Record<TLedgerKind, { available: -1 | 0 | 1; frozen: -1 | 0 | 1 }> = {
  credit: { available: 1, frozen: 0 },
  debit: { available: -1, frozen: 0 },
  freeze: { available: -1, frozen: 1 },
  release: { available: 1, frozen: -1 },
  consume: { available: 0, frozen: -1 },
};

const MAX_TEXT_LENGTH = 200;

function invalid(path: string, message: TValidationKey): AppError {
  return new AppError('BAD_REQUEST', undefined, [{ path, message }]);
}

function assertUserId(userId: number): void {
  if (!Number.isSafeInteger(userId) || userId <= 0) throw invalid('userId', 'invalidValue');
}

function assertOp(op: TLedgerOp): void {
  assertUserId(op.userId);
  if (typeof op.amountFen !== 'number' || !Number.isSafeInteger(op.amountFen) || op.amountFen <= 0) {
    throw invalid('amountFen', 'invalidValue');
  }
  if (typeof op.reason !== 'string' || op.reason.trim() === '') throw invalid('reason', 'required');
  if (op.reason.length > MAX_TEXT_LENGTH) throw invalid('reason', 'tooLong');
  if (op.reference !== undefined && (typeof op.reference !== 'string' || op.reference.length > MAX_TEXT_LENGTH)) {
    throw invalid('reference', 'tooLong');
  }
  if (op.idempotencyKey !== undefined) {
    if (typeof op.idempotencyKey !== 'string' || op.idempotencyKey === '') throw invalid('idempotencyKey', 'required');
    if (op.idempotencyKey.length > MAX_TEXT_LENGTH) throw invalid('idempotencyKey', 'tooLong');
  }
}

// The amount an entry moved (every kind moves one amount; see EFFECTS).
function amountOfEntry(entry: TLedgerEntryRow): number {
  return Math.max(Math.abs(entry.availableDelta), Math.abs(entry.frozenDelta));
}

/**
 * The balance ledger: the only way money moves. Every change is one short
 * transaction that locks the user's balance row, checks the idempotency key
 * under that lock, appends an immutable entry and updates the balance, so
 * concurrent spends can never overdraw and a retry never moves money twice.
 */
export function createLedgerService(deps: Pick<TDeps, 'db' | 'clock'>) {
  const { db, clock } = deps;

  // Everything after the lock; throws before writing anything, so a rejected op leaves no trace.
  async function applyLocked(tx: TTx, kind: TLedgerKind, op: TLedgerOp): Promise<TLedgerResult> {
    const now = clock.now();
    let balance = await lockBalance(tx, op.userId);
    if (!balance && kind === 'credit') {
      // Only a credit can succeed on an account without a row; the others fail below and write nothing.
      await insertBalanceIfMissing(tx, op.userId, now);
      balance = await lockBalance(tx, op.userId);
    }
    if (op.idempotencyKey !== undefined) {
      // Checked under the row lock: a concurrent twin has committed (and is visible) or not started.
      const previous = await findEntryByIdempotencyKey(tx, op.userId, op.idempotencyKey);
      if (previous) {
        if (previous.kind !== kind || amountOfEntry(previous) !== op.amountFen) {
          throw new AppError('IDEMPOTENCY_CONFLICT');
        }
        return {
          entryId: previous.id,
          availableFen: previous.availableAfter,
          frozenFen: previous.frozenAfter,
          isReplay: true,
        };
      }
    }
    const current = balance ?? { availableFen: 0, frozenFen: 0 };
    const effect = EFFECTS[kind];
    const availableDelta = effect.available * op.amountFen;
    const frozenDelta = effect.frozen * op.amountFen;
    const next = { availableFen: current.availableFen + availableDelta, frozenFen: current.frozenFen + frozenDelta };
    if (next.availableFen < 0) throw new AppError('INSUFFICIENT_BALANCE');
    if (next.frozenFen < 0) throw new AppError('INSUFFICIENT_FROZEN');
    if (!Number.isSafeInteger(next.availableFen) || !Number.isSafeInteger(next.frozenFen)) {
      throw invalid('amountFen', 'invalidValue');
    }
    if (!balance) throw new Error(`ledger: no balance row for user ${op.userId} after a successful check`);
    const entry = await insertEntry(tx, {
      userId: op.userId,
      kind,
      reason: op.reason,
      availableDelta,
      frozenDelta,
      availableAfter: next.availableFen,
      frozenAfter: next.frozenFen,
      reference: op.reference ?? null,
      idempotencyKey: op.idempotencyKey ?? null,
      createdAt: now,
    });
    await updateBalance(tx, op.userId, next, now);
    return { entryId: entry.id, availableFen: next.availableFen, frozenFen: next.frozenFen, isReplay: false };
  }

  async function apply(kind: TLedgerKind, op: TLedgerOp, tx?: TTx): Promise<TLedgerResult> {
    assertOp(op);
    if (tx) return applyLocked(tx, kind, op);
    return db.transaction((own) => applyLocked(own, kind, op));
  }

  return {
    /** Creates the user's balance row if missing (idempotent, safe under concurrency). */
    async ensureAccount(userId: number, tx?: TDbOrTx): Promise<void> {
      assertUserId(userId);
      await insertBalanceIfMissing(tx ?? db, userId, clock.now());
    },

    /** available += amount (recharge, refund, rebate, trial...). */
    credit: (op: TLedgerOp, tx?: TTx) => apply('credit', op, tx),

    /** available -= amount; INSUFFICIENT_BALANCE (and nothing moves) when it would go negative. */
    debit: (op: TLedgerOp, tx?: TTx) => apply('debit', op, tx),

    /** Moves amount from available to frozen (held for a pending supply request); INSUFFICIENT_BALANCE if short. */
    freeze: (op: TLedgerOp, tx?: TTx) => apply('freeze', op, tx),

    /** Moves amount back from frozen to available; INSUFFICIENT_FROZEN if less is frozen. */
    release: (op: TLedgerOp, tx?: TTx) => apply('release', op, tx),

    /** Spends frozen money (frozen -= amount); INSUFFICIENT_FROZEN if less is frozen. */
    consume: (op: TLedgerOp, tx?: TTx) => apply('consume', op, tx),

    /**
     * Takes back `amountFen` for a reversed recharge inside the caller's
     * transaction: debits what the available balance covers (reason
     * reversal, key `key`) and records the rest as debt. Answers both parts.
     */
    async takeBackOrOwe(
      tx: TTx,
      userId: number,
      amountFen: number,
      key: string,
      reference: string,
    ): Promise<{ debitedFen: number; debtFen: number }> {
      await insertBalanceIfMissing(tx, userId, clock.now());
      const balance = (await lockBalance(tx, userId))!;
      const debitedFen = Math.min(balance.availableFen, amountFen);
      if (debitedFen > 0)
        await applyLocked(tx, 'debit', {
          userId,
          amountFen: debitedFen,
          reason: 'reversal',
          reference,
          idempotencyKey: key,
        });
      const debtFen = amountFen - debitedFen;
      if (debtFen > 0) await changeDebt(tx, userId, debtFen, clock.now());
      return { debitedFen, debtFen };
    },

    /**
     * After a credit, inside its transaction: pays the user's debt from the
     * available balance first, as far as it goes (reason reversal, key
     * `debt:<reference>`). Answers what was paid.
     */
    async settleDebt(tx: TTx, userId: number, reference: string): Promise<number> {
      const balance = await lockBalance(tx, userId);
      const debt = balance ? await findDebt(tx, userId) : 0;
      const payFen = Math.min(debt, balance?.availableFen ?? 0);
      if (payFen <= 0) return 0;
      await applyLocked(tx, 'debit', {
        userId,
        amountFen: payFen,
        reason: 'reversal',
        reference,
        idempotencyKey: `debt:${reference}`,
      });
      await changeDebt(tx, userId, -payFen, clock.now());
      return payFen;
    },

    /** The user's balances; zeros when the user has no balance row yet. */
    async getBalance(userId: number, tx?: TDbOrTx): Promise<TBalance> {
      assertUserId(userId);
      return (await findBalance(tx ?? db, userId)) ?? { availableFen: 0, frozenFen: 0 };
    },

    /** The user's entries, newest first; page is 1-based. */
    async listEntries(
      userId: number,
      page: { page: number; pageSize: number },
      filters: TEntryFilters = {},
    ): Promise<{ records: TLedgerEntry[]; total: number }> {
      assertUserId(userId);
      if (!Number.isSafeInteger(page.page) || page.page < 1) throw invalid('page', 'invalidValue');
      if (!Number.isSafeInteger(page.pageSize) || page.pageSize < 1 || page.pageSize > 1000) {
        throw invalid('pageSize', 'invalidValue');
      }
      return listEntriesPage(db, userId, page.pageSize, (page.page - 1) * page.pageSize, filters);
    },

    /**
     * Credits TRIAL_CREDIT_FEN once per user and stamps users.trial_granted_at,
     * in one transaction. Concurrent first logins serialize on the balance row
     * lock; all but one see the 'trial' entry and answer isGranted false.
     * NOT_FOUND when the user does not exist.
     */
    async grantTrialCredit(userId: number): Promise<{ isGranted: boolean }> {
      assertUserId(userId);
      return db.transaction(async (tx) => {
        // Balance row first, user row second: the same lock order as every other money path.
        await insertBalanceIfMissing(tx, userId, clock.now());
        await lockBalance(tx, userId);
        const grantedAt = await findTrialGrantedAt(tx, userId);
        if (grantedAt === undefined) throw new AppError('NOT_FOUND');
        if (grantedAt !== null) return { isGranted: false };
        const result = await applyLocked(tx, 'credit', {
          userId,
          amountFen: TRIAL_CREDIT_FEN,
          reason: TRIAL_REASON,
          idempotencyKey: TRIAL_IDEMPOTENCY_KEY,
        });
        if (result.isReplay) return { isGranted: false };
        await stampTrialGranted(tx, userId, clock.now());
        return { isGranted: true };
      });
    },
  };
}

/** The ledger service's interface (what other features receive). */
export type TLedgerService = ReturnType<typeof createLedgerService>;
