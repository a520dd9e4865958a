import type { TAuditEntry, TAuditQuery, TPage } from '@proxy/contract';
import type { TDeps } from '../../lib/deps';
import { insertAuditEntry, listAuditPage } from './audit.repository';

// Fields whose values never reach the audit log.
const SECRET_FIELD = /pass|secret|token|key|code|otp|authorization/i;
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

/** The input of a call as the audit keeps it: secrets replaced, long text cut, control characters replaced. */
export function redactForAudit(value: unknown, field = ''): unknown {
  if (SECRET_FIELD.test(field)) return '[redacted]';
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redactForAudit(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), redactForAudit(v, k)]));
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
  /** Error name when the call failed, else undefined. */
  errorName?: string;
  ip: string;
};

/** Writes the audit entry of an operator call (ARCHITECTURE.md: every admin call that changes data). */
export async function recordAdminCall(deps: Pick<TDeps, 'db'>, call: TAdminCall): Promise<void> {
  // The target filter finds an order's calls by its order id too.
  const targetId = call.input.id ?? call.input.user_id ?? call.input.order_id;
  await insertAuditEntry(deps.db, {
    operatorId: call.operatorId,
    route: call.route,
    method: call.method,
    path: call.path,
    targetId: targetId === undefined ? null : storableText(String(targetId)).slice(0, 64),
    input: redactForAudit(call.input) as Record<string, unknown>,
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
