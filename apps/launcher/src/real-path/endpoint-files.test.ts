import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProxyUsername } from '@proxy/contract';
import { buyOk, createUser, request, type TTestUser } from '@proxy/server/testing';
import { getThroughHttpProxy, startApiWithGateway, until } from '../../test/api-with-gateway';

// Endpoint files (spider records) whose lines are used through the real gateway.
describe('endpoint file lines through the gateway', () => {
  let t: Awaited<ReturnType<typeof startApiWithGateway>>;
  let ann: TTestUser;
  let dynamicId: number;

  beforeAll(async () => {
    t = await startApiWithGateway();
    ann = await createUser(t.app, t.mailer, 'ann');
    dynamicId = (
      await buyOk(t.app, ann.token, '/token/variable/traffic', {
        network: 'HTTP',
        country_id: 'us',
        quantity: 1,
        traffic_gb: 0.1,
      })
    ).tokens[0].token_id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('generated sticky lines work through the gateway', async () => {
    const res = await request(t.app, 'POST', '/token/create/spider', {
      token: ann.token,
      body: { token_id: dynamicId, session: 'sticky', line: 'http', count: 2 },
    });
    const lines = res.json().data.lines as string[];
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toBe(lines[1]);
    expect(parseProxyUsername(new URL(lines[0]).username)!.options.sesstime).toBe(10);
    const echo = `http://127.0.0.1:${t.apiPort}/api/proxy/echo`;
    for (const line of lines) {
      let answer = await getThroughHttpProxy(line, echo);
      // A new token is a gateway poll away from being known.
      await until(async () => (answer = await getThroughHttpProxy(line, echo)).status === 200);
      expect(JSON.parse(answer.body).data.ip).toBe('127.0.0.1');
    }
  });
});
