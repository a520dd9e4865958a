import { sql } from 'drizzle-orm';
import { ROUTES, type TRouteDef } from '@proxy/contract';
import { openDb, type TDbHandle } from '@proxy/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  describeOnPglite,
  describeOnPostgres,
  itOnPostgres,
} from '../../test/helpers';
import { signIn } from '../features/proxies/proxies-test-kit';
import {
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  type TTestUser,
} from '../features/proxies/proxies-test-kit';
import { writeNotification } from '../features/notifications/notifications.service';
import { answerHoldsUntil, clockWatchedByAnswers, runForAnswer } from './answer-cache';

const HOUR = 60 * 60 * 1000;

describe('answers kept in memory per account (lib/answer-cache.ts)', () => {
  const clock = createFakeClock(new Date('2026-05-01T10:20:00Z'));
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ann: TTestUser;
  let ben: TTestUser;
  let tokenId: number;

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    await seedProxyStartup(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
    ben = await createUser(t.app, mailer, 'ben');
    await creditFen(t.deps, ann.userId, 100_000);
    tokenId = (
      await buyOk(t.app, ann.token, '/token/static/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 1,
        remark: 'first',
      })
    ).tokens[0].token_id;
  });
  afterAll(async () => {
    await t.close();
  });

  const run = (query: ReturnType<typeof sql>) => t.deps.db.execute(query);
  async function ispStatic(user = ann) {
    const res = await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=20', { token: user.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      total: number;
      records: { token_id: number; remark: string; usage: { used_bytes: number } }[];
    };
  }

  it('answers a list from memory until a row of its account changes, whoever changes it', async () => {
    expect((await ispStatic()).records[0].remark).toBe('first');
    // A change the database does not announce (its trigger off) is not seen: the answer came from memory.
    await run(sql`ALTER TABLE proxy_tokens DISABLE TRIGGER proxy_tokens_notify`);
    try {
      await run(sql`UPDATE proxy_tokens SET remark = 'unannounced' WHERE id = ${tokenId}`);
      expect((await ispStatic()).records[0].remark).toBe('first');
    } finally {
      await run(sql`ALTER TABLE proxy_tokens ENABLE TRIGGER proxy_tokens_notify`);
    }
    // Announced (SQL by hand, as a job or a gateway would write): the next answer has it.
    await run(sql`UPDATE proxy_tokens SET remark = 'announced' WHERE id = ${tokenId}`);
    expect((await ispStatic()).records[0].remark).toBe('announced');
    // Through the API as well.
    const put = await request(t.app, 'PUT', `/token/remark/${tokenId}`, {
      token: ann.token,
      body: { remark: 'by the API' },
    });
    expect(put.json().code, put.body).toBe(0);
    expect((await ispStatic()).records[0].remark).toBe('by the API');
  });

  it('keeps answers per account and per language', async () => {
    expect((await ispStatic(ben)).total).toBe(0);
    const zh = await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=20', {
      token: ann.token,
      lang: 'zh',
    });
    const en = await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=20', {
      token: ann.token,
      lang: 'en',
    });
    expect(zh.json().msg).toBe('成功');
    expect(en.json().msg).toBe('OK');
    expect(zh.headers['content-type']).toMatch(/^application\/json/);
    expect(zh.headers['cache-control']).toBe('no-store');
  });

  it('sees every write at once, however fast they follow each other (the catch-up on PostgreSQL)', async () => {
    for (let i = 1; i <= 40; i += 1) {
      await run(sql`UPDATE proxy_tokens SET traffic_used_bytes = ${i * 1000} WHERE id = ${tokenId}`);
      expect((await ispStatic()).records[0].usage.used_bytes).toBe(i * 1000);
    }
  });

  it('is told by each table the kept lists read: notifications, ledger, IP lists, usage, rebates', async () => {
    const total = async (path: string) => {
      const res = await request(t.app, 'GET', path, { token: ann.token });
      expect(res.json().code, res.body).toBe(0);
      return res.json().data.total as number;
    };
    const notifications = await total('/user/notification/list?page=1&page_size=20');
    await writeNotification(t.deps, ann.userId, 'welcome');
    expect(await total('/user/notification/list?page=1&page_size=20')).toBe(notifications + 1);

    const ledger = await total('/pay/ledger/list?page=1&page_size=20');
    await creditFen(t.deps, ann.userId, 500);
    expect(await total('/pay/ledger/list?page=1&page_size=20')).toBe(ledger + 1);

    const whitelist = async () => (await request(t.app, 'GET', '/user/ip/whitelist', { token: ann.token })).json().data;
    const before = JSON.stringify(await whitelist());
    await run(
      sql`INSERT INTO ip_list_entries (user_id, list, entry, kind, family, start_hex, end_hex) VALUES (${ann.userId}, 'whitelist', '9.9.9.9', 'ip', 4, '00000000000000000000000009090909', '00000000000000000000000009090909')`,
    );
    expect(JSON.stringify(await whitelist())).not.toBe(before);
    expect(JSON.stringify(await whitelist())).toContain('9.9.9.9');

    const traffic = async () =>
      (await request(t.app, 'GET', '/token/session/traffic', { token: ann.token })).json().data.total_bytes as number;
    const bytes = await traffic();
    await run(
      sql`INSERT INTO token_usage (token_id, user_id, bucket, bytes) VALUES (${tokenId}, ${ann.userId}, ${new Date('2026-05-01T09:00:00Z')}, 777)`,
    );
    expect(await traffic()).toBe(bytes + 777);

    // Rebates are the inviter's list.
    const rebates = await total('/invite/rebate/records?page=1&page_size=20');
    await run(
      sql`INSERT INTO rebates (order_id, inviter_id, invitee_id, charge_fen, rebate_fen, rule_version, due_at) VALUES ('r-1', ${ann.userId}, ${ben.userId}, 1000, 100, 1, now())`,
    );
    expect(await total('/invite/rebate/records?page=1&page_size=20')).toBe(rebates + 1);
  });

  it('keeps a series up to now until its current bucket ends', async () => {
    const first = (await request(t.app, 'GET', '/token/session/traffic?granularity=hour', { token: ann.token })).json()
      .data;
    clock.advance(30 * 60 * 1000); // 10:50, the same hour
    const same = (await request(t.app, 'GET', '/token/session/traffic?granularity=hour', { token: ann.token })).json()
      .data;
    expect(same.to).toBe(first.to);
    clock.advance(HOUR); // 11:50
    const next = (await request(t.app, 'GET', '/token/session/traffic?granularity=hour', { token: ann.token })).json()
      .data;
    expect(new Date(next.to).getTime()).toBe(new Date(first.to).getTime() + HOUR);
  });

  it('ends a kept session as soon as the database ends it or changes its account', async () => {
    await signIn(t.app, ben);
    expect((await ispStatic(ben)).total).toBe(0);
    await run(sql`UPDATE users SET token_version = token_version + 1 WHERE id = ${ben.userId}`);
    const refused = await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=20', { token: ben.token });
    expect(refused.statusCode).toBe(401);

    await signIn(t.app, ben);
    expect((await ispStatic(ben)).total).toBe(0);
    await run(sql`UPDATE user_sessions SET ended_at = now() WHERE user_id = ${ben.userId} AND ended_at IS NULL`);
    expect((await request(t.app, 'GET', '/user/info', { token: ben.token })).statusCode).toBe(401);

    await signIn(t.app, ben);
    expect((await ispStatic(ben)).total).toBe(0);
    await run(sql`UPDATE users SET status = 'disabled' WHERE id = ${ben.userId}`);
    expect(
      (await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=20', { token: ben.token })).json().code,
    ).not.toBe(0);
    await run(sql`UPDATE users SET status = 'active' WHERE id = ${ben.userId}`);
  });

  itOnPostgres(
    'takes nothing from memory while its connection is lost, and nothing older once it is back',
    async () => {
      await signIn(t.app, ann);
      expect((await ispStatic()).records[0].remark).toBe('by the API');
      // Listening (and not between a loss and its reconnection) before its connection is cut.
      await expect.poll(async () => (await t.deps.answerCache.ready()) === true).toBe(true);
      const result = (await run(
        sql`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'user_rows-feed' AND datname = current_database()`,
      )) as unknown as { rows: { n: number }[] };
      const [terminated] = result.rows;
      expect(terminated.n).toBe(1);
      // Committed while nobody listens: this notification is lost.
      await run(sql`UPDATE proxy_tokens SET remark = 'while away' WHERE id = ${tokenId}`);
      expect((await ispStatic()).records[0].remark).toBe('while away');
      // Back: memory answers again, and holds only what was read after the loss.
      await expect.poll(async () => (await t.deps.answerCache.ready()) === true).toBe(true);
      expect((await ispStatic()).records[0].remark).toBe('while away');
    },
  );
});

describeOnPglite('the routes whose answers are kept', () => {
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let dan: TTestUser;
  beforeAll(async () => {
    t = await createTestApp({ mailer });
    await seedProxyStartup(t.deps);
    dan = await createUser(t.app, mailer, 'dan');
    await creditFen(t.deps, dan.userId, 100_000);
    await buyOk(t.app, dan.token, '/token/static/traffic', {
      network: 'HTTP',
      country_id: 'us',
      quantity: 1,
      traffic_gb: 1,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('read only tables whose changes are notified (a table without the trigger would leave a kept answer stale)', async () => {
    const notified = (
      (await t.deps.db.execute(
        sql`SELECT DISTINCT event_object_table AS name FROM information_schema.triggers WHERE action_statement LIKE '%notify_%'`,
      )) as unknown as { rows: { name: string }[] }
    ).rows.map((r) => r.name);
    const tables = new Set(
      (
        (await t.deps.db.execute(
          sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`,
        )) as unknown as {
          rows: { name: string }[];
        }
      ).rows.map((r) => r.name),
    );
    // Every statement this database runs, as drizzle sends it (table names quoted).
    const pglite = t.db.pglite!;
    const statements: string[] = [];
    const query = pglite.query.bind(pglite);
    pglite.query = ((text: string, ...rest: unknown[]) => {
      statements.push(text);
      return (query as (...a: unknown[]) => unknown)(text, ...rest);
    }) as typeof pglite.query;
    const kept = (Object.entries(ROUTES) as [string, TRouteDef][]).filter(([, def]) => def.isCachedPerUser);
    expect(kept.length).toBeGreaterThanOrEqual(15);
    try {
      for (const [name, def] of kept) {
        statements.length = 0;
        const url = def.path.includes(':') ? undefined : `${def.path}?page=1&page_size=20`;
        expect(url, `${name} has no path parameters to fill`).toBeDefined();
        const res = await request(t.app, 'GET', url!, { token: dan.token });
        expect(res.json().code, `${name}: ${res.body}`).toBe(0);
        const read = new Set(
          [...statements.join('\n').matchAll(/"([a-z_0-9]+)"/g)].map((m) => m[1]).filter((n) => tables.has(n)),
        );
        expect(read.size, `${name} read no table`).toBeGreaterThan(0);
        for (const table of read) expect(notified, `${name} reads ${table}`).toContain(table);
      }
    } finally {
      pglite.query = query;
    }
  });
});

describeOnPostgres('answers kept by two API instances on one PostgreSQL database', () => {
  const mailer = createMemoryMailer();
  let a: Awaited<ReturnType<typeof createTestApp>>;
  let b: Awaited<ReturnType<typeof createTestApp>>;
  let ownPool: TDbHandle;
  let cat: TTestUser;

  beforeAll(async () => {
    a = await createTestApp({ mailer });
    // The second instance has a pool of its own, as another process would.
    ownPool = await openDb({ url: a.db.url });
    b = await createTestApp({ mailer, database: ownPool });
    await seedProxyStartup(a.deps);
    cat = await createUser(a.app, mailer, 'cat');
    await creditFen(a.deps, cat.userId, 100_000);
  });
  afterAll(async () => {
    await b.close();
    await ownPool.close();
    await a.close();
  });

  it("drops the other instance's kept answers and sessions once the change's notification arrives", async () => {
    const list = async (app: typeof a) =>
      (await request(app.app, 'GET', '/token/list/isp/static?page=1&page_size=20', { token: cat.token })).json()
        .data as { total: number };
    expect((await list(b)).total).toBe(0);
    expect((await list(a)).total).toBe(0);
    await buyOk(a.app, cat.token, '/token/static/traffic', {
      network: 'HTTP',
      country_id: 'us',
      quantity: 2,
      traffic_gb: 1,
    });
    // The instance that made the change answers it at once; the other once its notification arrives.
    expect((await list(a)).total).toBe(2);
    await expect.poll(async () => (await list(b)).total).toBe(2);

    const logout = await request(a.app, 'POST', '/user/logout/all', { token: cat.token });
    expect(logout.json().code, logout.body).toBe(0);
    await expect
      .poll(
        async () =>
          (await request(b.app, 'GET', '/token/list/isp/static?page=1&page_size=20', { token: cat.token })).statusCode,
      )
      .toBe(401);
  });
});

describe('ANSWER_CACHE_MB=0', () => {
  it('reads every answer from the database', async () => {
    const mailer = createMemoryMailer();
    const t = await createTestApp({ mailer, config: { ANSWER_CACHE_MB: '0' } });
    try {
      await seedProxyStartup(t.deps);
      const eve = await createUser(t.app, mailer, 'eve');
      await creditFen(t.deps, eve.userId, 100_000);
      const id = (
        await buyOk(t.app, eve.token, '/token/static/traffic', {
          network: 'HTTP',
          country_id: 'us',
          quantity: 1,
          traffic_gb: 1,
          remark: 'a',
        })
      ).tokens[0].token_id;
      const remark = async () =>
        (await request(t.app, 'GET', '/token/list/isp/static?page=1&page_size=20', { token: eve.token })).json().data
          .records[0].remark as string;
      expect(await remark()).toBe('a');
      // Even a change the database does not announce is seen.
      await t.deps.db.execute(sql`ALTER TABLE proxy_tokens DISABLE TRIGGER proxy_tokens_notify`);
      try {
        await t.deps.db.execute(sql`UPDATE proxy_tokens SET remark = 'b' WHERE id = ${id}`);
        expect(await remark()).toBe('b');
      } finally {
        await t.deps.db.execute(sql`ALTER TABLE proxy_tokens ENABLE TRIGGER proxy_tokens_notify`);
      }
    } finally {
      await t.close();
    }
  });
});

describe('runForAnswer: whether an answer may be kept', () => {
  const clock = clockWatchedByAnswers(createFakeClock(new Date('2026-05-01T10:00:00Z')));

  it('keeps an answer that did not read the clock until its rows change', async () => {
    expect((await runForAnswer(async () => 1)).validUntil).toBe(Infinity);
  });

  it('keeps none that read the clock without saying until when it holds', async () => {
    expect((await runForAnswer(async () => clock.now())).validUntil).toBe(0);
  });

  it('keeps one that said until when it holds, until then', async () => {
    const until = new Date('2026-05-01T11:00:00Z').getTime();
    const { validUntil } = await runForAnswer(async () => {
      clock.now();
      await Promise.resolve();
      answerHoldsUntil(until);
    });
    expect(validUntil).toBe(until);
  });

  it('counts a clock read only inside its own answer', async () => {
    clock.now();
    const [a, b] = await Promise.all([runForAnswer(async () => clock.now()), runForAnswer(async () => 2)]);
    expect(a.validUntil).toBe(0);
    expect(b.validUntil).toBe(Infinity);
  });
});
