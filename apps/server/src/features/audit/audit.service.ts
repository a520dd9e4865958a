import type { TAuditEntry, TAuditQuery, TPage } from '@proxy/contract';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TDb, TDbOrTx, TTx } from '@proxy/db';
import type { TDeps } from '../../lib/deps';
import { hasTransactionWritten, insertAuditEntry, listAuditPage } from './audit.repository';

// Fields whose values never reach the audit log. `csv` is the inventory import's file, whose lines carry the
// upstream proxies' passwords (host:port:user:pass).
const SECRET_FIELD = /pass|secret|token|key|code|otp|authorization|^csv$/i;
// Long values are cut: the entry records what was done, not bulk content.
const MAX_TEXT = 500;

// A refused call's input may hold control characters (NUL first of all), which the database cannot store in text.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Text as the audit stores it: control characters shown as U+FFFD, long text cut. */
function storableText(text: string): string {
  const cut = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  return cut.replace(CONTROL_CHARACTERS, '\uFFFD');
}

// Input nested deeper is kept as this mark (the routing layer refuses deeper input; a refused call's is cut here).
const MAX_DEPTH = 8;

/**
 * The input of a call as the audit keeps it: secrets replaced, long text cut,
 * control characters replaced, nesting cut at MAX_DEPTH levels, file bytes
 * as their size.
 */
export function redactForAudit(value: unknown, field = '', depth = 0): unknown {
  if (SECRET_FIELD.test(field)) return '[redacted]';
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return `[${value.length} bytes]`;
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object' && depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redactForAudit(v, '', depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storableText(k), redactForAudit(v, k, depth + 1)]),
    );
  }
  return value;
}

/** One operator call that changes data, as the routing layer reports it. */
export type TAdminCall = {
  operatorId: number;
  route: string;
  method: string;
  path: string;
  input: Record<string, unknown>;
  /** What the call did outside the database (a mail, a dial) and how it went, kept with the input under "effects". */
  effects?: Record<string, string>;
  /** Error name when the call failed, else undefined. */
  errorName?: string;
  ip: string;
};

/** Writes the audit entry of an operator call (ARCHITECTURE.md: every admin call that changes data). */
export async function recordAdminCall(deps: Pick<TDeps, 'db'>, call: TAdminCall): Promise<void> {
  await writeEntry(deps.db, call);
}

async function writeEntry(db: TDbOrTx, call: TAdminCall): Promise<void> {
  // The target filter finds an order's calls by its order id too.
  const targetId = call.input.id ?? call.input.user_id ?? call.input.order_id;
  await insertAuditEntry(db, {
    operatorId: call.operatorId,
    route: call.route,
    method: call.method,
    path: call.path,
    targetId: targetId === undefined ? null : storableText(String(targetId)).slice(0, 64),
    input: redactForAudit(
      call.effects && Object.keys(call.effects).length > 0 ? { ...call.input, effects: call.effects } : call.input,
    ) as Record<string, unknown>,
    result: call.errorName ? 'error' : 'ok',
    errorCode: call.errorName ?? null,
    ip: call.ip,
  });
}

/** GET /admin/audit/list. */
export async function listAudit(deps: Pick<TDeps, 'db'>, query: TAuditQuery): Promise<TPage<TAuditEntry>> {
  const { rows, total } = await listAuditPage(
    deps.db,
    {
      operatorId: query.operator_id,
      operatorEmail: query.operator_email || undefined,
      route: query.route,
      targetId: query.target_id,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    },
    { limit: query.page_size, offset: (query.page - 1) * query.page_size },
  );
  return {
    records: rows.map((r) => ({
      id: r.id,
      operator_id: r.operatorId,
      operator_email: r.operatorEmail,
      route: r.route,
      method: r.method,
      path: r.path,
      target_id: r.targetId,
      input: r.input as Record<string, unknown>,
      result: r.result,
      error_code: r.errorCode,
      ip: r.ip,
      created_at: r.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/**
 * An operator call in progress (see runAudited): its entry, written once, by
 * the first transaction of the call that writes anything, inside it.
 */
type TAuditScope = { call: TAdminCall & { effects: Record<string, string> }; isWritten: boolean };

const scopes = new AsyncLocalStorage<TAuditScope>();

/**
 * Runs an operator call that changes data (the routing layer, for every
 * audited route) so that its audit entry is written inside the transaction
 * that makes its change: the first transaction of the call (on the database
 * auditedDatabase wraps) that has written anything gets the entry as its
 * last statement, before its commit; a rollback takes both away. A call that
 * changed nothing in a transaction (a dry run) gets its entry here, after it
 * answered. A failed call's entry is the caller's (recordAdminCall, after the
 * rollback, with `call.effects` noted meanwhile). `call.input` may be set once
 * the input is parsed.
 */
export async function runAudited<T>(
  deps: Pick<TDeps, 'db'>,
  call: TAdminCall & { effects: Record<string, string> },
  run: () => Promise<T>,
): Promise<T> {
  const scope: TAuditScope = { call, isWritten: false };
  let result: T;
  try {
    result = await scopes.run(scope, run);
  } catch (error) {
    // Work the call left running (it keeps the call's context) writes no entry of it any more.
    scope.isWritten = true;
    throw error;
  }
  if (!scope.isWritten) {
    scope.isWritten = true;
    await writeEntry(deps.db, call);
  }
  return result;
}

/**
 * Notes what an operator call did outside the database (a mail sent, a
 * dial's outcome) for its audit entry: call it before the transaction that
 * changes state, so the entry written there carries it. A no-op outside an
 * operator call.
 */
export function noteAuditEffect(name: string, outcome: string): void {
  const scope = scopes.getStore();
  if (scope) scope.call.effects[name] = outcome;
}

/**
 * The database the features use (TDeps.db): the same, except that a
 * transaction begun at the top level inside an operator call (runAudited)
 * writes the call's audit entry before it commits, when it is the call's
 * first transaction to write anything. A retried transaction writes it again
 * (the rolled-back attempt took its entry with it).
 */
export function auditedDatabase(db: TDb): TDb {
  const audited = Object.create(db) as TDb;
  audited.transaction = ((transaction: (tx: TTx) => Promise<unknown>, config?: unknown) => {
    const scope = scopes.getStore();
    if (!scope || scope.isWritten) return db.transaction(transaction, config as never);
    let isWrittenHere = false;
    return db
      .transaction(async (tx) => {
        const result = await transaction(tx);
        if (!scope.isWritten && (await hasTransactionWritten(tx))) {
          await writeEntry(tx, scope.call);
          isWrittenHere = true;
        }
        return result;
      }, config as never)
      .then((result) => {
        if (isWrittenHere) scope.isWritten = true;
        return result;
      });
  }) as TDb['transaction'];
  return audited;
}
