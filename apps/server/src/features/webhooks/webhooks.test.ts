import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createSecretBox, openDb, SecretBoxError, webhookEndpoints } from '@proxy/db';
import { createTestDatabase } from '@proxy/db/testing';
import { createFakeClock, createMemoryMailer, createTestApp, itOnPostgres, type TTestApp } from '../../../test/helpers';
import { addTokenUsage } from '../proxies/proxies.repository';
import {
  buyOk,
  createUser,
  creditFen,
  request,
  seedProxyStartup,
  signIn,
  type TTestUser,
} from '../proxies/proxies-test-kit';
import { createAlertJobs } from '../alerts/alerts.jobs';
import { createWebhookRunner } from './webhooks.jobs';
import {
  deliverDueWebhooks,
  emitWebhookEvent,
  senderOf,
  WEBHOOK_LEASE_MS,
  WEBHOOK_SECRET_PURPOSE,
} from './webhooks.service';
import {
  startHttpsReceiver,
  verifyWebhook,
  type THttpsReceiver,
  type TReceived,
  type TReceiverAnswer,
} from './webhooks-test-kit';

const SECOND = 1000;
const LIMIT = 107_374_182; // 0.1 GB

describe('webhooks', () => {
  const clock = createFakeClock(new Date('2026-05-01T00:00:00Z'));
  let answers: (req: TReceived, i: number) => TReceiverAnswer = () => 200;
  let receiver: THttpsReceiver;
  let t: TTestApp;
  const mailer = createMemoryMailer();

  beforeAll(async () => {
    receiver = await startHttpsReceiver({ answer: (req, i) => answers(req, i) });
    t = await createTestApp({
      clock,
      mailer,
      config: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_EXTRA_CA: receiver.ca },
    });
    await seedProxyStartup(t.deps);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  const deliver = () => deliverDueWebhooks(t.deps, senderOf(t.deps.config));
  const create = async (user: TTestUser, events: string[], url = receiver.url) => {
    const res = await request(t.app, 'POST', '/user/webhooks', {
      token: user.token,
      body: { url, events, description: 'test' },
    });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data as { id: number; secret: string };
  };
  const log = async (user: TTestUser, id: number) =>
    (await request(t.app, 'GET', `/user/webhooks/${id}/deliveries`, { token: user.token })).json().data;

  it('registers endpoints (at most 5), shows the secret once, and refuses bad input in zh and en', async () => {
    const amy = await createUser(t.app, mailer, 'amy');
    const created = await create(amy, ['proxy.renewed']);
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const list = (await request(t.app, 'GET', '/user/webhooks', { token: amy.token })).json().data.records;
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('secret');
    const bad = await request(t.app, 'POST', '/user/webhooks', {
      token: amy.token,
      body: { url: 'http://example.com/x', events: ['proxy.renewed'] },
      lang: 'zh',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues[0].message).toContain('https://');
    const noEvents = await request(t.app, 'POST', '/user/webhooks', {
      token: amy.token,
      body: { url: 'https://example.com/x', events: [] },
      lang: 'en',
    });
    expect(noEvents.json().data.issues[0].message).toBe('Choose at least one event, each at most once');
    for (let i = 0; i < 4; i += 1) await create(amy, ['balance.low']);
    const sixth = await request(t.app, 'POST', '/user/webhooks', {
      token: amy.token,
      body: { url: receiver.url, events: ['balance.low'] },
      lang: 'en',
    });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().msg).toBe('You can register at most 5 webhook endpoints');
    const rotated = (
      await request(t.app, 'POST', `/user/webhooks/${created.id}/rotate-secret`, { token: amy.token })
    ).json().data;
    expect(rotated.secret).not.toBe(created.secret);
    const bob = await createUser(t.app, mailer, 'bob');
    expect((await request(t.app, 'DELETE', `/user/webhooks/${created.id}`, { token: bob.token })).statusCode).toBe(404);
    expect(
      (await request(t.app, 'GET', `/user/webhooks/${created.id}/deliveries`, { token: bob.token })).statusCode,
    ).toBe(404);
    expect((await request(t.app, 'DELETE', `/user/webhooks/${created.id}`, { token: amy.token })).json().code).toBe(0);
  });

  it('signs deliveries: a local HTTPS receiver verifies the test ping and a usage.threshold event written by the alert job', async () => {
    const cat = await createUser(t.app, mailer, 'cat');
    const hook = await create(cat, ['usage.threshold']);
    const before = receiver.received.length;
    const ping = (await request(t.app, 'POST', `/user/webhooks/${hook.id}/test`, { token: cat.token })).json().data;
    expect(ping).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      response_code: 200,
      event_type: 'ping',
      response_excerpt: 'ok',
    });
    expect(ping.latency_ms).toBeGreaterThanOrEqual(0);
    const got = receiver.received[before];
    expect(got.headers['webhook-id']).toBe(ping.event_id);
    expect(got.headers['webhook-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(hook.secret, got.headers, got.body, nowS())).toBe(true);
    expect(verifyWebhook(hook.secret, got.headers, got.body.replace('ping', 'pong'), nowS())).toBe(false);
    expect(verifyWebhook('whsec_other', got.headers, got.body, nowS())).toBe(false);

    const id = (
      await buyOk(t.app, cat.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0].token_id;
    await addTokenUsage(t.db.db, id, Math.ceil(LIMIT * 0.81));
    for (const job of createAlertJobs(t.deps)) await job.runOnce();
    expect(await deliver()).toBeGreaterThanOrEqual(1);
    const usage = receiver.received.filter((r) => r.json.type === 'usage.threshold' && r.json.data.proxy_id === id);
    expect(usage).toHaveLength(1);
    expect(usage[0].json.data.percent).toBe(80);
    expect(usage[0].headers['webhook-id']).toBe(usage[0].json.id);
    expect(verifyWebhook(hook.secret, usage[0].headers, usage[0].body, nowS())).toBe(true);
  });

  it('keeps signing secrets encrypted at rest; a secret stored in plain before still signs and is encrypted on use; another key fails clearly', async () => {
    const kim = await createUser(t.app, mailer, 'kim');
    const hook = await create(kim, ['balance.low']);
    const stored = async () =>
      (
        await t.db.db
          .select({ secret: webhookEndpoints.secret })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, hook.id))
      )[0].secret;
    // Stored: AES-GCM under DATA_ENCRYPTION_KEY, never the secret itself.
    const sealed = await stored();
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain(hook.secret.slice(6));
    const rotated = (
      await request(t.app, 'POST', `/user/webhooks/${hook.id}/rotate-secret`, { token: kim.token })
    ).json().data as { secret: string };
    expect(await stored()).toMatch(/^enc:v1:/);
    expect(await stored()).not.toContain(rotated.secret.slice(6));

    // A row written before encryption (the secret in plain): the delivery verifies with it, and the row is sealed now.
    const legacy = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef';
    await t.db.db.update(webhookEndpoints).set({ secret: legacy }).where(eq(webhookEndpoints.id, hook.id));
    const before = receiver.received.length;
    expect(
      (await request(t.app, 'POST', `/user/webhooks/${hook.id}/test`, { token: kim.token })).json().data.status,
    ).toBe('succeeded');
    const got = receiver.received[before];
    expect(verifyWebhook(legacy, got.headers, got.body, nowS())).toBe(true);
    const resealed = await stored();
    expect(resealed).toMatch(/^enc:v1:/);
    expect(createSecretBox(t.deps.config.dataEncryptionKey).open(resealed, WEBHOOK_SECRET_PURPOSE)).toEqual({
      plain: legacy,
      isSealed: true,
    });

    // A secret sealed under another key: the delivery pass fails naming DATA_ENCRYPTION_KEY, nothing is sent, the delivery stays queued.
    const other = createSecretBox(Buffer.alloc(32, 7));
    await t.db.db
      .update(webhookEndpoints)
      .set({ secret: other.seal(legacy, WEBHOOK_SECRET_PURPOSE) })
      .where(eq(webhookEndpoints.id, hook.id));
    await emitWebhookEvent(t.db.db, kim.userId, 'balance.low', `balance:${kim.userId}`, { n: 1 });
    const sent = receiver.received.length;
    const failure = await deliver().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SecretBoxError);
    expect(String(failure)).toContain(`another DATA_ENCRYPTION_KEY (key id ${other.keyId}`);
    expect(receiver.received.length).toBe(sent);
    const queued = (await log(kim, hook.id)).records.find(
      (r: { event_type: string }) => r.event_type === 'balance.low',
    );
    expect(queued.status).toBe('pending');
    await t.db.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
  });

  it('retries a failing receiver with exponential backoff (same event id) until it answers 2xx', async () => {
    const dan = await createUser(t.app, mailer, 'dan');
    const hook = await create(dan, ['proxy.renewed']);
    let failures = 0;
    answers = (req) => (req.json.data?.proxy_id === 'retry' && failures++ < 2 ? 500 : 200);
    await t.db.db.transaction((tx) =>
      emitWebhookEvent(tx, dan.userId, 'proxy.renewed', 'proxy:retry', { proxy_id: 'retry' }),
    );
    const mine = () => receiver.received.filter((r) => r.json.data?.proxy_id === 'retry');
    expect(await deliver()).toBe(1);
    expect(mine()).toHaveLength(1);
    let [entry] = (await log(dan, hook.id)).records;
    expect(entry).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_code: 500,
      response_excerpt: 'failing with 500',
    });
    expect(entry.next_attempt_at).toBe(new Date(clock.now().getTime() + 30 * SECOND).toISOString());
    clock.advance(29 * SECOND);
    expect(await deliver()).toBe(0);
    clock.advance(1 * SECOND);
    expect(await deliver()).toBe(1);
    [entry] = (await log(dan, hook.id)).records;
    expect(entry).toMatchObject({ status: 'pending', attempts: 2 });
    // The second wait is twice the first.
    expect(entry.next_attempt_at).toBe(new Date(clock.now().getTime() + 60 * SECOND).toISOString());
    clock.advance(59 * SECOND);
    expect(await deliver()).toBe(0);
    clock.advance(1 * SECOND);
    expect(await deliver()).toBe(1);
    [entry] = (await log(dan, hook.id)).records;
    expect(entry).toMatchObject({ status: 'succeeded', attempts: 3, response_code: 200 });
    expect(new Set(mine().map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(mine().every((r) => verifyWebhook(hook.secret, r.headers, r.body, nowS()))).toBe(true);
    answers = () => 200;
  });

  it('delivers in order per subject: a later event waits for the earlier one (delivered or given up), other subjects do not', async () => {
    const eve = await createUser(t.app, mailer, 'eve');
    const hook = await create(eve, ['proxy.renewed', 'proxy.expired']);
    const tag = (r: { json: { data: Record<string, unknown> } }) => r.json.data?.tag;
    answers = (req) => (req.json.data?.tag === 'a1' || req.json.data?.tag === 'c1' ? 503 : 200);
    await t.db.db.transaction(async (tx) => {
      await emitWebhookEvent(tx, eve.userId, 'proxy.renewed', 'proxy:a', { tag: 'a1' });
      await emitWebhookEvent(tx, eve.userId, 'proxy.expired', 'proxy:a', { tag: 'a2' });
      await emitWebhookEvent(tx, eve.userId, 'proxy.renewed', 'proxy:b', { tag: 'b1' });
      await emitWebhookEvent(tx, eve.userId, 'proxy.renewed', 'proxy:c', { tag: 'c1' });
      await emitWebhookEvent(tx, eve.userId, 'proxy.expired', 'proxy:c', { tag: 'c2' });
    });
    const seen = () => receiver.received.map(tag).filter((x) => typeof x === 'string' && /^[abc]\d$/.test(x));
    await deliver();
    // a1 and c1 failed; b1 (another subject) went through; a2 and c2 wait behind them.
    expect(seen()).toEqual(expect.arrayContaining(['a1', 'b1', 'c1']));
    expect(seen()).toHaveLength(3);
    answers = (req) => (req.json.data?.tag === 'c1' ? 503 : 200);
    clock.advance(30 * SECOND);
    await deliver();
    const second = seen().slice(3);
    expect(second.toSorted()).toEqual(['a1', 'a2', 'c1']);
    expect(second.indexOf('a2')).toBeGreaterThan(second.indexOf('a1'));
    expect(seen()).not.toContain('c2');
    // c1 keeps failing: retried for 24 hours, then given up, and c2 follows.
    for (let i = 0; i < 40 && !seen().includes('c2'); i += 1) {
      clock.advance(4 * 60 * 60 * SECOND);
      await deliver();
    }
    expect(seen().at(-1)).toBe('c2');
    const records = (await log(eve, hook.id)).records as { event_type: string; status: string; attempts: number }[];
    expect(records.filter((r) => r.status === 'failed')).toHaveLength(1);
    expect(records.filter((r) => r.status === 'succeeded')).toHaveLength(4);
    answers = () => 200;
  });

  itOnPostgres(
    'two server instances draining the queue at once send each event once, in order per subject',
    async () => {
      const ned = await createUser(t.app, mailer, 'ned');
      await create(ned, ['supply.changed']);
      await t.db.db.transaction(async (tx) => {
        for (let i = 0; i < 30; i += 1)
          await emitWebhookEvent(tx, ned.userId, 'supply.changed', `supply:${i % 10}`, { who: 'ned', n: i });
      });
      const second = await openDb({ url: (t.db as { url?: string }).url, poolSize: 10 });
      try {
        const otherDeps = { ...t.deps, db: second.db };
        const before = receiver.received.length;
        const counts = await Promise.all([
          deliver(),
          deliverDueWebhooks(otherDeps, senderOf(t.deps.config)),
          deliver(),
          deliverDueWebhooks(otherDeps, senderOf(t.deps.config)),
        ]);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
        const got = receiver.received.slice(before).filter((r) => r.json.data?.who === 'ned');
        expect(got).toHaveLength(30);
        expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(30);
        for (let subject = 0; subject < 10; subject += 1) {
          const order = got.map((r) => r.json.data.n as number).filter((n) => n % 10 === subject);
          expect(order).toEqual([subject, subject + 10, subject + 20]);
        }
      } finally {
        await second.close();
      }
    },
  );

  it('changes an endpoint: a turned-off endpoint gets no deliveries, events only reach the types it subscribes to', async () => {
    const ola = await createUser(t.app, mailer, 'ola');
    const hook = await create(ola, ['balance.low']);
    const put = (body: object, lang = 'en') =>
      request(t.app, 'PUT', `/user/webhooks/${hook.id}`, { token: ola.token, body, lang });
    const emit = (type: 'balance.low' | 'work_order.replied', n: number) =>
      t.db.db.transaction((tx) => emitWebhookEvent(tx, ola.userId, type, `account:${ola.userId}`, { who: 'ola', n }));
    const mine = () => receiver.received.filter((r) => r.json.data?.who === 'ola').map((r) => r.json.data.n);
    expect((await put({ is_enabled: false })).json().data).toMatchObject({ is_enabled: false, disabled_reason: null });
    await emit('balance.low', 1);
    await deliver();
    expect(mine()).toEqual([]);
    expect((await put({ is_enabled: true, events: ['work_order.replied'] })).json().data).toMatchObject({
      is_enabled: true,
      events: ['work_order.replied'],
    });
    await emit('balance.low', 2);
    await emit('work_order.replied', 3);
    await deliver();
    expect(mine()).toEqual([3]);
    const bad = await put({ url: 'https://user:pw@example.com/in' }, 'zh');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.issues[0].message).toBe('请输入 https:// 开头的有效网址（不含用户名、密码或 #）');
    const other = await createUser(t.app, mailer, 'pia');
    expect(
      (await request(t.app, 'PUT', `/user/webhooks/${hook.id}`, { token: other.token, body: { is_enabled: false } }))
        .statusCode,
    ).toBe(404);
  });

  it('resends a delivery with the same event id', async () => {
    const fay = await createUser(t.app, mailer, 'fay');
    const hook = await create(fay, ['balance.low']);
    await t.db.db.transaction((tx) =>
      emitWebhookEvent(tx, fay.userId, 'balance.low', `account:${fay.userId}`, { balance: '1.00' }),
    );
    await deliver();
    const [first] = (await log(fay, hook.id)).records;
    const resent = (
      await request(t.app, 'POST', `/user/webhooks/deliveries/${first.id}/resend`, { token: fay.token })
    ).json().data;
    expect(resent).toMatchObject({ event_id: first.event_id, status: 'pending', attempts: 0 });
    const before = receiver.received.length;
    await deliver();
    expect(receiver.received.slice(before).map((r) => r.headers['webhook-id'])).toEqual([first.event_id]);
    const other = await createUser(t.app, mailer, 'gus');
    expect(
      (await request(t.app, 'POST', `/user/webhooks/deliveries/${first.id}/resend`, { token: other.token })).statusCode,
    ).toBe(404);
  });

  it('turns an endpoint off after 3 days of failures and tells the user', async () => {
    const hal = await createUser(t.app, mailer, 'hal');
    const hook = await create(hal, ['recharge.succeeded']);
    answers = (req) => (req.json.data?.who === 'hal' ? 500 : 200);
    for (let day = 0; day <= 3; day += 1) {
      await t.db.db.transaction((tx) =>
        emitWebhookEvent(tx, hal.userId, 'recharge.succeeded', `recharge:${day}`, { who: 'hal' }),
      );
      await deliver();
      if (day < 3) clock.advance(24 * 60 * 60 * SECOND);
    }
    await signIn(t.app, hal);
    const [endpoint] = (await request(t.app, 'GET', '/user/webhooks', { token: hal.token })).json().data.records;
    expect(endpoint).toMatchObject({ id: hook.id, is_enabled: false, disabled_reason: 'failing' });
    const notes = (await request(t.app, 'GET', '/user/notification/list', { token: hal.token, lang: 'en' })).json()
      .data;
    expect(JSON.stringify(notes)).toContain('Webhook endpoint turned off');
    answers = () => 200;
  });

  it('emits events where they happen: a renewal reaches an endpoint subscribed to proxy.renewed', async () => {
    const ivy = await createUser(t.app, mailer, 'ivy');
    await creditFen(t.deps, ivy.userId, 100_000);
    const hook = await create(ivy, ['proxy.renewed']);
    const bought = await buyOk(t.app, ivy.token, '/token/static/ip', {
      network: 'HTTP',
      country_id: 'us',
      quantity: 1,
      days: 1,
    });
    const id = bought.tokens[0].token_id;
    const renewed = await request(t.app, 'POST', '/token/ip/renew', {
      token: ivy.token,
      body: { token_ids: [id], days: 3, payway: 'balance' },
    });
    expect(renewed.json().data).toMatchObject({ success: 1 });
    const before = receiver.received.length;
    await deliver();
    const got = receiver.received.slice(before);
    expect(got.map((r) => r.json.type)).toEqual(['proxy.renewed']);
    expect(got[0].json.data.proxy_id).toBe(id);
    expect(verifyWebhook(hook.secret, got[0].headers, got[0].body, nowS())).toBe(true);
  });
});

describe('webhooks without the test setting', () => {
  let receiver: THttpsReceiver;
  let t: TTestApp;
  const mailer = createMemoryMailer();
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await createTestApp({ mailer, config: { WEBHOOK_EXTRA_CA: receiver.ca } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('refuses a private address: a literal one when saved, a name resolving to loopback when it is about to be dialled', async () => {
    const jo = await createUser(t.app, mailer, 'jo');
    for (const lang of ['zh', 'en'] as const) {
      const res = await request(t.app, 'POST', '/user/webhooks', {
        token: jo.token,
        body: { url: receiver.url, events: ['balance.low'] },
        lang,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(
        lang === 'zh'
          ? 'Webhook 地址须为公网 HTTPS 地址，不能是本机、内网或链路本地地址'
          : 'A webhook must point to a public HTTPS address, not a loopback, private or link-local one',
      );
    }
    for (const url of ['https://10.1.2.3/x', 'https://[::1]/x', 'https://169.254.169.254/latest']) {
      expect(
        (await request(t.app, 'POST', '/user/webhooks', { token: jo.token, body: { url, events: ['balance.low'] } }))
          .statusCode,
      ).toBe(400);
    }
    expect(
      await request(t.app, 'GET', '/user/webhooks', { token: jo.token }).then((r) => r.json().data.records),
    ).toEqual([]);
    const created = (
      await request(t.app, 'POST', '/user/webhooks', {
        token: jo.token,
        body: { url: `https://localhost:${receiver.port}/hooks`, events: ['balance.low'] },
      })
    ).json().data;
    const ping = (await request(t.app, 'POST', `/user/webhooks/${created.id}/test`, { token: jo.token })).json().data;
    expect(ping).toMatchObject({ status: 'pending', attempts: 1, response_code: null });
    expect(ping.response_excerpt).toMatch(/^address refused: (127\.0\.0\.1|::1) is loopback$/);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('webhooks to IPv4 addresses written as IPv6', () => {
  let receiver: THttpsReceiver;
  let t: TTestApp;
  const mailer = createMemoryMailer();
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await createTestApp({ mailer, config: { WEBHOOK_EXTRA_CA: receiver.ca } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  // IPv4-compatible (::/96) and IPv4-mapped (::ffff:0:0/96) addresses are what the IPv4 address they embed is.
  it('refuses [::7f00:1], [::127.0.0.1] and their kin when saved and when about to be dialled, and dials none', async () => {
    const ann = await createUser(t.app, mailer, 'ann');
    const urls = [
      'https://[::7f00:1]/',
      `https://[::127.0.0.1]:${receiver.port}/hooks`,
      `https://[::7f00:1]:${receiver.port}/hooks`,
      `https://[0:0:0:0:0:0:7f00:1]:${receiver.port}/hooks`,
      `https://[::ffff:7f00:1]:${receiver.port}/hooks`,
      'https://[::a9fe:a9fe]/latest',
      'https://[::a00:1]/x',
      'http://[::7f00:1]/',
      `http://[::127.0.0.1]:${receiver.port}/`,
    ];
    for (const url of urls) {
      const res = await request(t.app, 'POST', '/user/webhooks', {
        token: ann.token,
        body: { url, events: ['balance.low'] },
        lang: 'en',
      });
      expect(res.statusCode, url).toBe(400);
      // http:// is refused for its scheme; every https:// one for its address.
      if (url.startsWith('http:')) expect(res.json().msg, url).toContain('https://');
      else
        expect(res.json().msg, url).toBe(
          'A webhook must point to a public HTTPS address, not a loopback, private or link-local one',
        );
    }
    expect((await request(t.app, 'GET', '/user/webhooks', { token: ann.token })).json().data.records).toEqual([]);
    // An endpoint saved before (or a sender asked directly) is refused at the dial as well.
    const sender = senderOf(t.deps.config);
    for (const url of urls.filter((u) => u.startsWith('https:'))) {
      const sent = await sender.send({ url, secret: 's', eventId: 'e', timestamp: 1, body: '{}' });
      expect(sent.ok, url).toBe(false);
      expect(sent.excerpt, url).toMatch(/^address refused: \S+ is (loopback|link-local|private)$/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});

describe('webhooks across a restart', () => {
  it('redelivers an attempt cut short by a stopped server, after its lease, with the same event id', async () => {
    const clock = createFakeClock(new Date('2026-06-01T00:00:00Z'));
    const database = await createTestDatabase();
    let isFirst = true;
    const receiver = await startHttpsReceiver({
      answer: () => {
        if (!isFirst) return 200;
        isFirst = false;
        return 'hold';
      },
    });
    const config = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_EXTRA_CA: receiver.ca };
    const mailer = createMemoryMailer();
    const first = await createTestApp({ clock, mailer, database, config });
    try {
      const kim = await createUser(first.app, mailer, 'kim');
      const hook = (
        await request(first.app, 'POST', '/user/webhooks', {
          token: kim.token,
          body: { url: receiver.url, events: ['supply.changed'] },
        })
      ).json().data;
      await database.db.transaction((tx) =>
        emitWebhookEvent(tx, kim.userId, 'supply.changed', 'supply:1', { supply_id: 1, status: 'processing' }),
      );
      const runner = createWebhookRunner(first.deps);
      const pass = runner.runAllOnce();
      await receiver.waitFor(1);
      // The server stops while the receiver still holds the answer.
      await runner.stop();
      await pass;
      await first.close();

      const second = await createTestApp({ clock, mailer, database, config });
      try {
        const again = createWebhookRunner(second.deps);
        expect((await again.runAllOnce())['webhook-delivery']).toBe(0);
        clock.advance(WEBHOOK_LEASE_MS);
        expect((await again.runAllOnce())['webhook-delivery']).toBe(1);
        await receiver.waitFor(2);
        const [held, redelivered] = receiver.received;
        expect(redelivered.headers['webhook-id']).toBe(held.headers['webhook-id']);
        expect(redelivered.body).toBe(held.body);
        expect(
          verifyWebhook(hook.secret, redelivered.headers, redelivered.body, Math.floor(clock.now().getTime() / 1000)),
        ).toBe(true);
        const [entry] = (
          await request(second.app, 'GET', `/user/webhooks/${hook.id}/deliveries`, { token: kim.token })
        ).json().data.records;
        expect(entry).toMatchObject({ status: 'succeeded', attempts: 2, event_id: held.headers['webhook-id'] });
        await again.stop();
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await database.close();
    }
  });
});
