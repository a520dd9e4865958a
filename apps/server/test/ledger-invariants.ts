import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '@proxy/db';

/**
 * The money invariants, checked with SQL over the whole database: the one
 * check the model-based tests run at the end of each run and the fault tests
 * run after a crash and restart. Answers one line per violation (empty when
 * everything holds), so a failing test shows what is wrong and where.
 *
 * - every balance row equals the sums of its user's ledger entries, and its
 *   user's newest entry's "after" values; no ledger without a balance row;
 * - no negative available, frozen or debt;
 * - every proxy order paid from the balance (purchase, renew, auto_renew; not
 *   the allocation of a supply request, paid by its frozen fee) has its debit:
 *   per user and action, as many debits of that reason and the same sum; a
 *   keyed (Idempotency-Key) purchase or renewal has the debit of its key and
 *   cost, and a keyed purchase or renewal debit has its order;
 * - every purchase order has its quantity of tokens; every token has its
 *   purchase order of the same user;
 * - every successful pay order has exactly one recharge credit of its value,
 *   any other has none; every provider-keyed recharge credit has its successful order;
 * - every reversed pay order took back from the balance once what it says
 *   (reversed_fen, the rest as debt), an unreversed one nothing;
 * - every supply request's fee is frozen exactly once and released or consumed
 *   at most once, as its state says (open: neither; success: consumed;
 *   cancelled, failed, refunded: released), each movement of the request's fee;
 *   no supply movement without its request;
 * - every rebate is paid at most once: a paid one exactly once, a pending or
 *   unknown one never.
 */
export async function findLedgerViolations(db: TDbOrTx): Promise<string[]> {
  const found: string[] = [];
  for (const [name, query] of Object.entries(CHECKS)) {
    const result = (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
    for (const row of result.rows) found.push(`${name}: ${JSON.stringify(row)}`);
  }
  return found;
}

const CHECKS: Record<string, SQL> = {
  'balance = sum of entries': sql`
    SELECT coalesce(b.user_id, s.user_id) AS user_id, b.available_fen, b.frozen_fen, s.available_sum, s.frozen_sum
    FROM balances b
    FULL JOIN (
      SELECT user_id, sum(available_delta)::bigint AS available_sum, sum(frozen_delta)::bigint AS frozen_sum
      FROM ledger_entries GROUP BY user_id
    ) s ON s.user_id = b.user_id
    WHERE b.user_id IS NULL
       OR b.available_fen <> coalesce(s.available_sum, 0)
       OR b.frozen_fen <> coalesce(s.frozen_sum, 0)`,

  'balance = newest entry': sql`
    SELECT b.user_id, b.available_fen, b.frozen_fen, e.available_after, e.frozen_after
    FROM balances b
    JOIN LATERAL (
      SELECT available_after, frozen_after FROM ledger_entries le WHERE le.user_id = b.user_id ORDER BY le.id DESC LIMIT 1
    ) e ON true
    WHERE b.available_fen <> e.available_after OR b.frozen_fen <> e.frozen_after`,

  'no negative balance': sql`
    SELECT user_id, available_fen, frozen_fen, debt_fen FROM balances
    WHERE available_fen < 0 OR frozen_fen < 0 OR debt_fen < 0`,

  'paid proxy orders = their debits': sql`
    WITH o AS (
      SELECT user_id, action AS reason, count(*)::int AS n, sum(cost_fen)::bigint AS fen
      FROM proxy_orders po
      WHERE cost_fen > 0 AND NOT EXISTS (SELECT 1 FROM supply_requests sr WHERE sr.order_id = po.id)
      GROUP BY user_id, action
    ), d AS (
      SELECT user_id, reason, count(*)::int AS n, (-sum(available_delta))::bigint AS fen
      FROM ledger_entries
      WHERE kind = 'debit' AND reason IN ('purchase', 'renew', 'auto_renew')
      GROUP BY user_id, reason
    )
    SELECT coalesce(o.user_id, d.user_id) AS user_id, coalesce(o.reason, d.reason) AS reason,
           o.n AS orders, o.fen AS order_fen, d.n AS debits, d.fen AS debit_fen
    FROM o FULL JOIN d ON d.user_id = o.user_id AND d.reason = o.reason
    WHERE o.n IS DISTINCT FROM d.n OR o.fen IS DISTINCT FROM d.fen`,

  'keyed order has its debit': sql`
    SELECT po.id AS order_id, po.user_id, po.idempotency_key, po.cost_fen
    FROM proxy_orders po
    WHERE po.idempotency_key IS NOT NULL AND po.cost_fen > 0 AND NOT EXISTS (
      SELECT 1 FROM ledger_entries le
      WHERE le.user_id = po.user_id AND le.idempotency_key = po.idempotency_key
        AND le.kind = 'debit' AND le.available_delta = -po.cost_fen
    )`,

  'keyed order debit has its order': sql`
    SELECT le.id AS entry_id, le.user_id, le.idempotency_key
    FROM ledger_entries le
    WHERE le.kind = 'debit' AND le.reason IN ('purchase', 'renew') AND le.idempotency_key IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM proxy_orders po WHERE po.user_id = le.user_id AND po.idempotency_key = le.idempotency_key
    )`,

  'purchase order has its tokens': sql`
    SELECT po.id AS order_id, po.quantity, count(t.id)::int AS tokens
    FROM proxy_orders po
    LEFT JOIN proxy_tokens t ON t.order_id = po.id AND t.user_id = po.user_id
    WHERE po.action = 'purchase'
    GROUP BY po.id, po.quantity
    HAVING count(t.id) <> po.quantity`,

  'token has its order': sql`
    SELECT t.id AS token_id, t.user_id, t.order_id
    FROM proxy_tokens t
    LEFT JOIN proxy_orders po ON po.id = t.order_id AND po.user_id = t.user_id AND po.action = 'purchase'
    WHERE po.id IS NULL`,

  'successful pay order credited once': sql`
    SELECT p.id AS order_id, p.status, p.value_fen, count(le.id)::int AS credits, sum(le.available_delta)::bigint AS credited_fen
    FROM pay_orders p
    LEFT JOIN ledger_entries le ON le.user_id = p.user_id AND le.kind = 'credit' AND le.reason = 'recharge' AND le.reference = p.id
    GROUP BY p.id, p.status, p.value_fen
    HAVING count(le.id) <> CASE WHEN p.status = 'success' THEN 1 ELSE 0 END
        OR (p.status = 'success' AND sum(le.available_delta) <> p.value_fen)`,

  'recharge credit has its paid order': sql`
    SELECT le.id AS entry_id, le.user_id, le.reference
    FROM ledger_entries le
    WHERE le.kind = 'credit' AND le.reason = 'recharge' AND le.idempotency_key LIKE 'pay:%' AND NOT EXISTS (
      SELECT 1 FROM pay_orders p WHERE p.id = le.reference AND p.user_id = le.user_id AND p.status = 'success'
    )`,

  'reversed order taken back once': sql`
    SELECT p.id AS order_id, p.reversed_at, p.reversed_fen, count(le.id)::int AS debits, (-sum(le.available_delta))::bigint AS debited_fen
    FROM pay_orders p
    LEFT JOIN ledger_entries le ON le.user_id = p.user_id AND le.idempotency_key = 'reverse:' || p.id
    GROUP BY p.id, p.reversed_at, p.reversed_fen
    HAVING (p.reversed_at IS NULL AND count(le.id) <> 0)
        OR (p.reversed_at IS NOT NULL AND count(le.id) <> CASE WHEN coalesce(p.reversed_fen, 0) > 0 THEN 1 ELSE 0 END)
        OR (count(le.id) > 0 AND -sum(le.available_delta) <> p.reversed_fen)`,

  'supply fee frozen once, released or consumed at most once': sql`
    SELECT sr.id AS request_id, sr.status, sr.cost_fen,
           count(le.id) FILTER (WHERE le.kind = 'freeze')::int AS freezes,
           count(le.id) FILTER (WHERE le.kind = 'release')::int AS releases,
           count(le.id) FILTER (WHERE le.kind = 'consume')::int AS consumes,
           count(le.id) FILTER (WHERE abs(le.frozen_delta) <> sr.cost_fen OR le.kind NOT IN ('freeze', 'release', 'consume'))::int AS odd
    FROM supply_requests sr
    LEFT JOIN ledger_entries le ON le.user_id = sr.user_id AND le.reason = 'supply' AND le.reference = 'supply:' || sr.id
    GROUP BY sr.id, sr.status, sr.cost_fen
    HAVING count(le.id) FILTER (WHERE le.kind = 'freeze') <> 1
        OR count(le.id) FILTER (WHERE abs(le.frozen_delta) <> sr.cost_fen OR le.kind NOT IN ('freeze', 'release', 'consume')) <> 0
        OR count(le.id) FILTER (WHERE le.kind = 'release') <> CASE WHEN sr.status IN ('cancelled', 'failed', 'refunded') THEN 1 ELSE 0 END
        OR count(le.id) FILTER (WHERE le.kind = 'consume') <> CASE WHEN sr.status = 'success' THEN 1 ELSE 0 END`,

  'supply movement has its request': sql`
    SELECT le.id AS entry_id, le.user_id, le.reference
    FROM ledger_entries le
    WHERE le.reason = 'supply' AND NOT EXISTS (
      SELECT 1 FROM supply_requests sr WHERE le.reference = 'supply:' || sr.id AND sr.user_id = le.user_id
    )`,

  'rebate paid at most once': sql`
    SELECT r.id AS rebate_id, r.status, count(le.id)::int AS payments
    FROM rebates r
    LEFT JOIN ledger_entries le ON le.user_id = r.inviter_id AND le.idempotency_key = 'rebate:' || r.order_id
    GROUP BY r.id, r.status
    HAVING count(le.id) > 1
        OR (r.status = 'success' AND count(le.id) <> 1)
        OR (r.status IN ('pending', 'unknown') AND count(le.id) <> 0)`,
};
