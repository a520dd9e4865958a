import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createUser, request } from '../proxies/proxies-test-kit';
import { startHttpsReceiver, type THttpsReceiver } from './webhooks-test-kit';

// A test ping dials the customer's endpoint at once: it is rate limited per account like the sign-in calls.
describe('webhook test pings', () => {
  const MAX = 4;
  let receiver: THttpsReceiver;
  let t: TTestApp;
  const mailer = createMemoryMailer();

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await createTestApp({
      mailer,
      config: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_EXTRA_CA: receiver.ca, RATE_LIMIT_AUTH_MAX: String(MAX) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('sends at most RATE_LIMIT_AUTH_MAX pings per account and window; the rest answer 429 with Retry-After, in both languages', async () => {
    const pat = await createUser(t.app, mailer, 'pat');
    const hook = (
      await request(t.app, 'POST', '/user/webhooks', {
        token: pat.token,
        body: { url: receiver.url, events: ['balance.low'] },
      })
    ).json().data as { id: number };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(t.app, 'POST', `/user/webhooks/${hook.id}/test`, { token: pat.token, lang: i % 2 ? 'en' : 'zh' }),
      ),
    );
    const sent = answers.filter((res) => res.statusCode === 200);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(sent).toHaveLength(MAX);
    expect(refused).toHaveLength(20 - MAX);
    // Pings of one endpoint go out in order (a later one waits for the earlier): at most MAX are ever sent.
    expect(receiver.received.length).toBeLessThanOrEqual(MAX);
    const log = (await request(t.app, 'GET', `/user/webhooks/${hook.id}/deliveries`, { token: pat.token })).json().data;
    expect(log.total).toBe(MAX);
    for (const res of refused) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().data.error).toBe('RATE_LIMITED');
    }
    expect(refused.map((res) => res.json().msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/[\u4e00-\u9fff]/), expect.stringMatching(/^[\x20-\x7e]+$/)]),
    );
  });
});
