/**
 * The plans of the console's list and count queries: on tables where another
 * customer holds many rows, each query, as its repository builds it, must
 * reach the rows of the user it lists through an index whose condition holds
 * that user. A plan that scans a whole table, or walks an index and drops
 * other users' rows in a Filter (the `Index Scan Backward using
 * proxy_tokens_pkey ... Filter: user_id = ...` that timed out at 1M rows),
 * fails here, with the plan.
 *
 * PostgreSQL only: PGlite's planner has other statistics and costs, so its
 * plans say nothing about production's. The queries are captured from the
 * real repository functions through a logging Drizzle over the same pool, so
 * a list added later is checked by adding one line to CASES.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import { schema, type TDb, type TDbHandle } from '@proxy/db';
import { createTestDatabase, describeOnPostgres } from './helpers';
import { listTokensMatching, listTokensPage } from '../src/features/proxies/proxies.repository';
import { listIpListPage } from '../src/features/ip-lists/ip-lists.repository';
import { listNotificationsPage } from '../src/features/notifications/notifications.repository';
import { listOrdersWithCustomer, listUserOrders } from '../src/features/payments/payments.repository';
import { listEntriesPage } from '../src/features/ledger/ledger.repository';
import { countInvitees, listInvitees, listRebates, sumRebatesByStatus } from '../src/features/invite/invite.repository';
import { listAllWorkOrders, listUserWorkOrders } from '../src/features/work-orders/work-orders.repository';
import { findWorkOrderIdsBySupply, listUserSupplyPage } from '../src/features/supply/supply.repository';
import { sumMoneyByDay, sumUsageByHour } from '../src/features/usage/usage.repository';
import { listLiveSessions } from '../src/features/auth/sessions.repository';
import { listSpiderRecordsPage } from '../src/features/endpoint-generator/endpoint-generator.repository';
import { listUsableTokens, listV1TokensPage } from '../src/features/customer-api/customer-api.repository';
import {
  countUserHoldings,
  listInviteesPage,
  listOpenSessionsPage,
  listUserTokensPage,
} from '../src/features/users/users-admin.repository';

/** Rows of the other customer per table, and of the user under test (whose rows come first, at the lowest ids). */
const OTHER_ROWS = 30_000;
const USER_ROWS = 6_000;

/** The tables filled with many rows of another customer: no query may scan them whole. */
const SEEDED = new Set([
  'users',
  'proxy_tokens',
  'ip_list_entries',
  'notifications',
  'pay_orders',
  'ledger_entries',
  'rebates',
  'work_orders',
  'supply_requests',
  'token_usage',
  'user_sessions',
  'spider_records',
]);

/** Columns naming the customer whose rows a query lists. */
const USER_COLUMNS = /\b(user_id|inviter_id|invited_by)\b/;

const PAGE = { limit: 20, offset: 0 };
const DAY = 24 * 3600 * 1000;

type TIds = { userId: number; now: Date };

/** Each list or count the console calls, by name: the repository call as a route makes it. */
const CASES: [string, (db: TDb, ids: TIds) => Promise<unknown>][] = [
  ...(
    [
      'static/traffic',
      'static/ip',
      'variable/traffic',
      'variable/ip',
      'isp/static',
      'isp/dynamic',
      'idc/static',
    ] as const
  ).map((list): [string, (db: TDb, ids: TIds) => Promise<unknown>] => [
    `proxies ${list}`,
    (db, { userId }) => listTokensPage(db, userId, { list }, PAGE),
  ]),
  [
    'proxies isp/static, enabled',
    (db, { userId }) => listTokensPage(db, userId, { list: 'isp/static', status: 'enabled' }, PAGE),
  ],
  [
    'proxies isp/static, deleted',
    (db, { userId }) => listTokensPage(db, userId, { list: 'isp/static', status: 'deleted' }, PAGE),
  ],
  [
    'proxies static/ip, keyword',
    (db, { userId }) => listTokensPage(db, userId, { list: 'static/ip', keyword: 'abc' }, PAGE),
  ],
  ['proxies export', (db, { userId }) => listTokensMatching(db, userId, { list: 'static/traffic' }, 5000)],
  ['ip whitelist', (db, { userId }) => listIpListPage(db, userId, 'whitelist', PAGE)],
  ['notifications', (db, { userId }) => listNotificationsPage(db, userId, { ...PAGE, isUnreadOnly: false })],
  ['notifications, unread', (db, { userId }) => listNotificationsPage(db, userId, { ...PAGE, isUnreadOnly: true })],
  ['pay orders', (db, { userId }) => listUserOrders(db, userId, {}, PAGE.limit, PAGE.offset)],
  [
    'pay orders, success',
    (db, { userId }) => listUserOrders(db, userId, { status: 'success' }, PAGE.limit, PAGE.offset),
  ],
  ['ledger statement', (db, { userId }) => listEntriesPage(db, userId, PAGE.limit, PAGE.offset)],
  [
    'ledger statement, reason',
    (db, { userId }) => listEntriesPage(db, userId, PAGE.limit, PAGE.offset, { reason: 'purchase' }),
  ],
  ['rebates', (db, { userId }) => listRebates(db, { inviterId: userId }, PAGE.limit, PAGE.offset)],
  ['rebate sums', (db, { userId }) => sumRebatesByStatus(db, userId)],
  ['invitees', (db, { userId }) => listInvitees(db, userId, PAGE.limit, PAGE.offset)],
  ['invitee count', (db, { userId }) => countInvitees(db, userId)],
  ['work orders', (db, { userId }) => listUserWorkOrders(db, userId, {}, PAGE)],
  ['work orders, open', (db, { userId }) => listUserWorkOrders(db, userId, { status: 'open' }, PAGE)],
  ['supply requests', (db, { userId }) => listUserSupplyPage(db, userId, {}, PAGE)],
  ['supply requests, pending', (db, { userId }) => listUserSupplyPage(db, userId, { status: 'pending' }, PAGE)],
  [
    'supply requests: their work orders',
    (db) => findWorkOrderIdsBySupply(db, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]),
  ],
  ['usage series', (db, { userId, now }) => sumUsageByHour(db, { userId }, new Date(now.getTime() - 30 * DAY), now)],
  [
    'usage series of a list',
    (db, { userId, now }) =>
      sumUsageByHour(db, { userId, list: 'static/traffic' }, new Date(now.getTime() - 30 * DAY), now),
  ],
  ['money series', (db, { userId, now }) => sumMoneyByDay(db, userId, new Date(now.getTime() - 30 * DAY), now, 480)],
  ['sessions', (db, { userId, now }) => listLiveSessions(db, userId, new Date(now.getTime() - 30 * DAY))],
  ['endpoint files', (db, { userId }) => listSpiderRecordsPage(db, userId, undefined, PAGE)],
  ['customer API: proxies', (db, { userId }) => listV1TokensPage(db, userId, {}, PAGE)],
  ['customer API: usable proxies', (db, { userId, now }) => listUsableTokens(db, userId, { now }, 1000)],
  [
    'operator: pay orders of a customer',
    (db, { userId }) => listOrdersWithCustomer(db, userId, {}, PAGE.limit, PAGE.offset),
  ],
  ['operator: proxies of a customer', (db, { userId }) => listUserTokensPage(db, userId, PAGE)],
  ['operator: sessions of a customer', (db, { userId }) => listOpenSessionsPage(db, userId, PAGE)],
  ['operator: invitees of a customer', (db, { userId }) => listInviteesPage(db, userId, PAGE)],
  ['operator: work orders of a customer', (db, { userId }) => listAllWorkOrders(db, { userId }, PAGE)],
  [
    'operator: holdings of a customer',
    (db, { userId, now }) => countUserHoldings(db, { id: userId, invitedBy: null }, now),
  ],
];

type TCaptured = { sql: string; params: unknown[] };
type TPlanNode = Record<string, unknown> & { 'Node Type': string; Plans?: TPlanNode[] };

/**
 * What in a plan reads other users' rows: a sequential scan of a seeded
 * table, or an index scan that applies the user condition as a Filter (its
 * Index Cond does not hold the user, so it walks everyone's rows).
 */
function findOtherUsersReads(plan: TPlanNode): string[] {
  const found: string[] = [];
  const visit = (node: TPlanNode) => {
    const relation = node['Relation Name'] as string | undefined;
    if (node['Node Type'] === 'Seq Scan' && relation && SEEDED.has(relation)) found.push(`Seq Scan on ${relation}`);
    const filter = node.Filter as string | undefined;
    // A lookup of one row by its key (the inner side of a join) reads that row only, whatever its Filter.
    const isKeyLookup = /^\(id = [^()]+\)$/.test(String(node['Index Cond'] ?? ''));
    if (relation && filter && USER_COLUMNS.test(filter) && !isKeyLookup) {
      found.push(
        `${node['Node Type']} on ${relation}${node['Index Name'] ? ` using ${String(node['Index Name'])}` : ''} with Filter: ${filter}`,
      );
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan);
  return found;
}

describeOnPostgres(
  "list plans on a table of many users (PGlite's planner statistics and costs differ from the server's)",
  () => {
    let handle: TDbHandle;
    let ids: TIds;

    beforeAll(async () => {
      handle = await createTestDatabase();
      ids = { userId: 0, now: new Date() };
      const pool = handle.pool!;
      const q = (text: string) => pool.query(text);
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO users (username, email, api_key, invite_code)
       SELECT 'plan-' || g, 'plan-' || g || '@example.com', 'plan-key-' || g, 'PLAN' || g FROM generate_series(0, 3) g ORDER BY g
       RETURNING id`,
      );
      const [userId, ...otherIds] = rows.map((r) => Number(r.id));
      ids.userId = userId;
      // The user's rows first (lowest ids), then many of three other customers, interleaved as time would interleave
      // them (so no column follows the table's physical order): a walk down the primary key passes all of these.
      for (const [tag, u, n, spread] of [
        ['u', String(userId), USER_ROWS, 50],
        ['o', `(ARRAY[${otherIds.join(',')}]::bigint[])[1 + g % 3]`, OTHER_ROWS, 150],
      ] as const) {
        const g = `FROM generate_series(1, ${n}) g`;
        await q(`INSERT INTO users (username, email, api_key, invite_code, invited_by)
        SELECT 'inv-${tag}-' || g, 'inv-${tag}-' || g || '@example.com', 'inv-key-${tag}-' || g, 'INV${tag}X' || g, ${u} ${g}`);
        await q(`INSERT INTO proxy_tokens (user_id, product, category, billing, network, country, username, password, status, deleted_at, expires_at, remark)
        SELECT ${u}, (ARRAY['static','dynamic'])[1 + g % 2], (ARRAY['isp','isp','isp','idc'])[1 + g % 4], (ARRAY['traffic','ip'])[1 + (g / 2) % 2],
          'HTTP', 'us', 'tok-${tag}-' || g, 'pw', (ARRAY['enabled','disabled','expired'])[1 + g % 3],
          CASE WHEN g % 10 = 0 THEN now() END, now() + interval '30 days', 'r' || g ${g}`);
        await q(`INSERT INTO ip_list_entries (user_id, list, entry, kind, family, start_hex, end_hex)
        SELECT ${u}, (ARRAY['whitelist','blacklist'])[1 + g % 2], 'e' || g, 'single', 4, lpad(to_hex(g), 32, '0'), lpad(to_hex(g), 32, '0') ${g}`);
        await q(`INSERT INTO notifications (user_id, kind, title_zh, title_en, content_zh, content_en, read_at, created_at)
        SELECT ${u}, 'system', 't', 't', 'c', 'c', CASE WHEN g % 3 = 0 THEN NULL ELSE now() END, now() - g * interval '1 minute' ${g}`);
        await q(`INSERT INTO pay_orders (id, user_id, method, mode, status, amount_fen, fee_fen, price_fen, value_fen, expires_at, created_at)
        SELECT 'P${tag}X' || g, ${u}, 'sandbox', 'redirect', (ARRAY['pending','success','timeout'])[1 + g % 3], 100, 0, 100, 100, now(), now() - g * interval '1 minute' ${g}`);
        await q(`INSERT INTO ledger_entries (user_id, kind, reason, available_delta, frozen_delta, available_after, frozen_after, created_at)
        SELECT ${u}, 'debit', (ARRAY['purchase','renew','recharge'])[1 + g % 3], -1, 0, 0, 0, now() - g * interval '1 minute' ${g}`);
        await q(`INSERT INTO rebates (order_id, inviter_id, invitee_id, charge_fen, rebate_fen, rule_version, status, due_at)
        SELECT 'R${tag}X' || g, ${u}, ${u}, 100, 10, 1, (ARRAY['pending','success'])[1 + g % 2], now() ${g}`);
        await q(`INSERT INTO work_orders (user_id, category, subject, status, supply_request_id)
        SELECT ${u}, 'other', 's', (ARRAY['open','answered','closed'])[1 + g % 3], CASE WHEN g % 5 = 0 THEN g END ${g}`);
        await q(`INSERT INTO supply_requests (user_id, type, product, network, amount, region, wait_days, cost_fen, contact_email, status, deadline_at)
        SELECT ${u}, 'ip', 'static', 'HTTP', 1, 'us', 3, 100, 'a@example.com', (ARRAY['pending','success','cancelled'])[1 + g % 3], now() ${g}`);
        await q(`INSERT INTO token_usage (token_id, user_id, bucket, bytes)
        SELECT ${tag === 'u' ? 1_000_000 : 2_000_000} + g % ${spread}, ${u}, date_trunc('hour', now()) - (g / ${spread}) * interval '1 hour', 1000 ${g}`);
        await q(`INSERT INTO user_sessions (user_id, method, ended_at, last_used_at)
        SELECT ${u}, 'password', CASE WHEN g % 2 = 0 THEN now() END, now() - g * interval '1 minute' ${g}`);
        await q(`INSERT INTO spider_records (user_id, token_id, params, line_count, content)
        SELECT ${u}, (SELECT min(id) FROM proxy_tokens WHERE user_id = ${userId}), '{}', 1, '' ${g}`);
      }
      await q('ANALYZE');
    });

    afterAll(async () => {
      await handle?.close();
    });

    it.each(CASES)('%s reads only the rows of its user', async (_name, call) => {
      const captured: TCaptured[] = [];
      const db = drizzle(handle.pool!, {
        schema,
        logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
      }) as unknown as TDb;
      await call(db, ids);
      const selects = captured.filter((c) => /^\s*(select|with)\b/i.test(c.sql));
      expect(selects.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const query of selects) {
        const { rows } = await handle.pool!.query<{ 'QUERY PLAN': [{ Plan: TPlanNode }] }>(
          `EXPLAIN (FORMAT JSON) ${query.sql}`,
          query.params,
        );
        const plan = rows[0]['QUERY PLAN'][0].Plan;
        const reads = findOtherUsersReads(plan);
        if (reads.length > 0) problems.push(`${query.sql}\n  ${reads.join('\n  ')}`);
      }
      expect(problems.join('\n\n')).toBe('');
    });
  },
);
