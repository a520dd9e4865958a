import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeClock,
  createMemoryMailer,
  createTestApp,
  type TMemoryMailer,
  type TTestApp,
} from '../../test/helpers';
import { createUser, request, type TTestUser } from '../features/proxies/proxies-test-kit';
import { seedChargeOptions } from '../features/payments/payments-charge.service';
import { emitWebhookEvent, deliverDueWebhooks, senderOf } from '../features/webhooks/webhooks.service';
import { startHttpsReceiver, type THttpsReceiver } from '../features/webhooks/webhooks-test-kit';
import { createJobRunner } from '../jobs/job-runner';
import type { createSandboxProvider } from '../features/payments/providers/sandbox';

/** The sum of the samples of `name` in the exposition text whose labels include `labels`. */
function valueIn(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

// The API's own metrics (lib/metrics.ts), read as the launcher's listener serves them.
describe('API metrics', () => {
  let t: TTestApp;
  let mailer: TMemoryMailer;
  let receiver: THttpsReceiver;
  let answer = 200;
  let ann: TTestUser;
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));

  beforeAll(async () => {
    receiver = await startHttpsReceiver({ answer: () => answer });
    mailer = createMemoryMailer();
    t = await createTestApp({
      mailer,
      clock,
      config: { PAY_SANDBOX: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_EXTRA_CA: receiver.ca },
    });
    await seedChargeOptions(t.deps);
    ann = await createUser(t.app, mailer, 'ann');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const text = () => t.deps.metrics.text();

  it('counts answers by route name and status, never by URL, with their latency', async () => {
    const before = await text();
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/health?x=1' });
    await t.app.inject({ method: 'GET', url: '/api/user/info' });
    await t.app.inject({ method: 'GET', url: '/api/no/such/thing/12345' });
    // A path of the table under a method it does not take is no route either.
    await t.app.inject({ method: 'GET', url: '/api/token/remark/98765' });
    const after = await text();
    const delta = (name: string, labels: Record<string, string>) =>
      valueIn(after, name, labels) - valueIn(before, name, labels);
    expect(delta('proxy_api_http_requests_total', { route: 'health', status: '200' })).toBe(2);
    expect(delta('proxy_api_http_requests_total', { route: 'userInfo', status: '401' })).toBe(1);
    expect(delta('proxy_api_http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    expect(delta('proxy_api_http_request_duration_seconds_count', { route: 'health' })).toBe(2);
    expect(after).not.toMatch(/12345|98765|x=1/);
  });

  it('counts payment notifications by provider and outcome', async () => {
    const before = await text();
    const order = (await request(t.app, 'POST', '/pay/charge/sandbox/100', { token: ann.token })).json().data;
    const sandbox = t.deps.payProviders.get('sandbox') as ReturnType<typeof createSandboxProvider>;
    const paid = sandbox.notificationFor({ id: order.order_id, priceFen: Math.round(order.price * 100) }, 'success');
    // The provider's notification, then the same again (a resend), then a forged one.
    const notify = (payload: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/pay/notify/sandbox', payload, headers });
    await notify(paid.rawBody, paid.headers);
    await notify(paid.rawBody, paid.headers);
    await notify('{"order_id":"forged"}', { 'content-type': 'application/json' });
    const after = await text();
    const delta = (outcome: string) =>
      valueIn(after, 'proxy_api_payment_notifications_total', { provider: 'sandbox', outcome }) -
      valueIn(before, 'proxy_api_payment_notifications_total', { provider: 'sandbox', outcome });
    expect([delta('credited'), delta('replay'), delta('refused'), delta('error')]).toEqual([1, 1, 1, 0]);
  });

  it('counts webhook deliveries by outcome and reads the backlog from the database', async () => {
    const created = await request(t.app, 'POST', '/user/webhooks', {
      token: ann.token,
      body: { url: receiver.url, events: ['supply.changed'], description: 'metrics' },
    });
    expect(created.json().code, created.body).toBe(0);
    await t.db.db.transaction(async (tx) => {
      await emitWebhookEvent(tx, ann.userId, 'supply.changed', 'supply:1', { n: 1 });
      await emitWebhookEvent(tx, ann.userId, 'supply.changed', 'supply:2', { n: 2 });
    });
    const before = await text();
    expect(valueIn(before, 'proxy_api_webhook_backlog')).toBe(2);
    answer = 500;
    await deliverDueWebhooks(t.deps, senderOf(t.deps.config));
    const failed = await text();
    expect(valueIn(failed, 'proxy_api_webhook_deliveries_total', { outcome: 'retry' })).toBe(2);
    expect(valueIn(failed, 'proxy_api_webhook_backlog')).toBe(2);
    // Due again after the first back-off (30 s): the oldest has waited since then.
    clock.advance(40_000);
    expect(valueIn(await text(), 'proxy_api_webhook_backlog_oldest_seconds')).toBeGreaterThanOrEqual(10);
    answer = 200;
    await deliverDueWebhooks(t.deps, senderOf(t.deps.config));
    const delivered = await text();
    expect(valueIn(delivered, 'proxy_api_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(2);
    expect(valueIn(delivered, 'proxy_api_webhook_backlog')).toBe(0);
  });

  it('counts job passes, their rows and failures, and says how long ago each last succeeded', async () => {
    let isFailing = false;
    const runner = createJobRunner({
      jobs: [
        { name: 'three-rows', runOnce: async () => 3 },
        {
          name: 'flaky',
          runOnce: async () => {
            if (isFailing) throw new Error('down');
            return 1;
          },
        },
      ],
      intervalMs: 60_000,
      log: { error: () => {} },
      observer: t.deps.metrics.jobs,
    });
    await runner.runAllOnce();
    isFailing = true;
    await runner.runAllOnce();
    const after = await text();
    expect(valueIn(after, 'proxy_api_job_runs_total', { job: 'three-rows', outcome: 'ok' })).toBe(2);
    expect(valueIn(after, 'proxy_api_job_rows_total', { job: 'three-rows' })).toBe(6);
    expect(valueIn(after, 'proxy_api_job_runs_total', { job: 'flaky', outcome: 'failed' })).toBe(1);
    expect(valueIn(after, 'proxy_api_job_lag_seconds', { job: 'flaky' })).toBeGreaterThan(0);
  });

  it('counts answers and sessions taken from memory, and accounts dropped by a change', async () => {
    const before = await text();
    const list = () => request(t.app, 'GET', '/user/notification/list?page=1&page_size=10', { token: ann.token });
    expect((await list()).json().code).toBe(0);
    expect((await list()).json().code).toBe(0);
    const after = await text();
    const delta = (name: string, labels: Record<string, string>) =>
      valueIn(after, name, labels) - valueIn(before, name, labels);
    expect(delta('proxy_api_answer_cache_requests_total', { kind: 'answer', result: 'hit' })).toBe(1);
    expect(delta('proxy_api_answer_cache_requests_total', { kind: 'session', result: 'hit' })).toBeGreaterThan(0);
    expect(valueIn(after, 'proxy_api_change_feed_live')).toBe(1);
    // A change of the account's row (any writer): its notification drops what was kept.
    await t.db.db.execute(sql`UPDATE users SET email = email WHERE id = ${ann.userId}`);
    await expect
      .poll(async () => valueIn(await text(), 'proxy_api_answer_cache_drops_total', { reason: 'change' }))
      .toBeGreaterThan(valueIn(after, 'proxy_api_answer_cache_drops_total', { reason: 'change' }));
  });
});
