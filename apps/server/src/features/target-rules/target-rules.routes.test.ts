import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { proxyTokens, targetRuleLists } from '@proxy/db';
import { createFakeClock, createMemoryMailer, createTestApp } from '../../../test/helpers';
import { callApi, registerUser } from '../auth/auth-test-kit';
import { readGatewayVersion } from '../gateway/gateway-state.repository';

describe('target rules', () => {
  const clock = createFakeClock();
  const mailer = createMemoryMailer();
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let token: string;
  let otherToken: string;
  let tokenId: number;
  let otherTokenId: number;
  let seq = 0;

  async function userIdOf(tk: string): Promise<number> {
    return (await callApi(t.app, 'GET', '/user/info', { token: tk })).json().data.user_id as number;
  }
  async function insertProxy(userId: number): Promise<number> {
    seq += 1;
    const [row] = await t.deps.db
      .insert(proxyTokens)
      .values({
        userId,
        product: 'static',
        category: 'isp',
        billing: 'ip',
        network: 'HTTP',
        country: 'us',
        username: `rules${seq}`,
        password: 'secret',
        expiresAt: new Date(clock.now().getTime() + 86_400_000),
      })
      .returning({ id: proxyTokens.id });
    return row.id;
  }
  const version = () => readGatewayVersion(t.deps.db);

  beforeAll(async () => {
    t = await createTestApp({ clock, mailer });
    token = await registerUser(t.app, mailer, { email: 'rita@example.com', username: 'rita' });
    otherToken = await registerUser(t.app, mailer, { email: 'omar@example.com', username: 'omar' });
    tokenId = await insertProxy(await userIdOf(token));
    otherTokenId = await insertProxy(await userIdOf(otherToken));
  });
  afterAll(async () => {
    await t.close();
  });

  it('needs a session for every call', async () => {
    expect((await callApi(t.app, 'GET', '/user/target-rules')).statusCode).toBe(401);
    expect((await callApi(t.app, 'PUT', '/user/target-rules', { body: { mode: 'deny', rules: [] } })).statusCode).toBe(
      401,
    );
    expect((await callApi(t.app, 'DELETE', '/user/target-rules')).statusCode).toBe(401);
    expect((await callApi(t.app, 'GET', `/token/target-rules/${tokenId}`)).statusCode).toBe(401);
    expect(
      (await callApi(t.app, 'PUT', `/token/target-rules/${tokenId}`, { body: { mode: 'deny', rules: [] } })).statusCode,
    ).toBe(401);
    expect((await callApi(t.app, 'DELETE', `/token/target-rules/${tokenId}`)).statusCode).toBe(401);
  });

  it("sets, reads and removes the account's list in canonical form, bumping the gateway version", async () => {
    expect((await callApi(t.app, 'GET', '/user/target-rules', { token })).json()).toMatchObject({
      code: 0,
      data: null,
    });
    const before = await version();
    const res = await callApi(t.app, 'PUT', '/user/target-rules', {
      token,
      body: { mode: 'deny', rules: [' Example.COM. ', '', '*.ads.example.net', '203.0.113.9/24', '2001:DB8::1'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      mode: 'deny',
      rules: ['example.com', '*.ads.example.net', '203.0.113.0/24', '2001:db8::1/128'],
      updated_at: clock.now().toISOString(),
    });
    expect(await version()).toBe(before + 1);
    expect((await callApi(t.app, 'GET', '/user/target-rules', { token })).json().data.rules).toHaveLength(4);
    // Another account sees nothing of it.
    expect((await callApi(t.app, 'GET', '/user/target-rules', { token: otherToken })).json().data).toBeNull();
    // Setting again replaces the whole list.
    const replaced = await callApi(t.app, 'PUT', '/user/target-rules', {
      token,
      body: { mode: 'allow', rules: ['example.org'] },
    });
    expect(replaced.json().data).toMatchObject({ mode: 'allow', rules: ['example.org'] });
    const removed = await callApi(t.app, 'DELETE', '/user/target-rules', { token });
    expect(removed.json()).toMatchObject({ code: 0, data: null });
    expect((await callApi(t.app, 'GET', '/user/target-rules', { token })).json().data).toBeNull();
  });

  it('refuses bad lines with the line in the issue path, in both languages, and changes nothing', async () => {
    await callApi(t.app, 'PUT', '/user/target-rules', { token, body: { mode: 'deny', rules: ['keep.example'] } });
    const before = await version();
    const en = await callApi(t.app, 'PUT', '/user/target-rules', {
      token,
      lang: 'en',
      body: { mode: 'deny', rules: ['ok.example', 'not a rule', '10.0.0.0/33', 'ok.example', '10.0.0.1-10.0.0.9'] },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().data.issues).toEqual([
      { path: 'rules.1', message: expect.stringContaining('Not a valid domain') },
      { path: 'rules.2', message: 'Invalid CIDR prefix: 0-32 for IPv4, 0-128 for IPv6' },
      { path: 'rules.3', message: 'This rule repeats an earlier one' },
      { path: 'rules.4', message: 'IP ranges are not supported; write them as CIDR blocks' },
    ]);
    const zh = await callApi(t.app, 'PUT', '/user/target-rules', {
      token,
      lang: 'zh',
      body: { mode: 'allow', rules: [] },
    });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().data.issues).toEqual([{ path: 'rules', message: '允许列表至少需要一条规则' }]);
    const tooMany = await callApi(t.app, 'PUT', '/user/target-rules', {
      token,
      lang: 'en',
      body: { mode: 'deny', rules: Array.from({ length: 201 }, (_, i) => `h${i}.example.com`) },
    });
    expect(tooMany.json().data.issues).toEqual([{ path: 'rules.200', message: 'A list holds at most 200 rules' }]);
    const mode = await callApi(t.app, 'PUT', '/user/target-rules', {
      token,
      lang: 'zh',
      body: { mode: 'block', rules: [] },
    });
    expect(mode.json().data.issues[0]).toEqual({
      path: 'mode',
      message: '模式须为 deny（禁止列表）或 allow（允许列表）',
    });
    expect(
      (await callApi(t.app, 'PUT', '/user/target-rules', { token, body: { mode: 'deny', rules: 'x.example' } }))
        .statusCode,
    ).toBe(400);
    expect((await callApi(t.app, 'GET', '/user/target-rules', { token })).json().data.rules).toEqual(['keep.example']);
    expect(await version()).toBe(before);
  });

  it("a proxy's list: its own replaces the account's, removing it brings the account's back", async () => {
    await callApi(t.app, 'PUT', '/user/target-rules', { token, body: { mode: 'deny', rules: ['account.example'] } });
    const first = await callApi(t.app, 'GET', `/token/target-rules/${tokenId}`, { token });
    expect(first.json().data).toMatchObject({
      token_id: tokenId,
      own: null,
      account: { mode: 'deny', rules: ['account.example'] },
      applies: 'account',
    });
    const set = await callApi(t.app, 'PUT', `/token/target-rules/${tokenId}`, {
      token,
      body: { mode: 'deny', rules: [] },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ own: { mode: 'deny', rules: [] }, applies: 'own' });
    const stored = await t.deps.db.select().from(targetRuleLists).where(eq(targetRuleLists.tokenId, tokenId));
    expect(stored).toHaveLength(1);
    const removed = await callApi(t.app, 'DELETE', `/token/target-rules/${tokenId}`, { token });
    expect(removed.json().data).toMatchObject({ own: null, applies: 'account' });
    await callApi(t.app, 'DELETE', '/user/target-rules', { token });
    expect((await callApi(t.app, 'GET', `/token/target-rules/${tokenId}`, { token })).json().data.applies).toBe('none');
  });

  it("answers 404 for another user's proxy or an unknown one, and changes nothing", async () => {
    const before = await version();
    for (const id of [otherTokenId, 999_999]) {
      expect((await callApi(t.app, 'GET', `/token/target-rules/${id}`, { token })).statusCode).toBe(404);
      expect(
        (
          await callApi(t.app, 'PUT', `/token/target-rules/${id}`, {
            token,
            body: { mode: 'deny', rules: ['x.example'] },
          })
        ).statusCode,
      ).toBe(404);
      expect((await callApi(t.app, 'DELETE', `/token/target-rules/${id}`, { token })).statusCode).toBe(404);
    }
    expect(await t.deps.db.select().from(targetRuleLists).where(eq(targetRuleLists.tokenId, otherTokenId))).toEqual([]);
    expect(await version()).toBe(before);
    expect((await callApi(t.app, 'GET', '/token/target-rules/abc', { token })).statusCode).toBe(400);
  });
});
