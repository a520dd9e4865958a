import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiStub, fail, raw } from './api-stub';
import { makeUser } from './fixtures';

// A stub of its own, so that the drift it is shown here does not fail these tests through the harness.
const stub = createApiStub();

beforeAll(() => stub.listen());
beforeEach(() => stub.reset());
afterAll(() => stub.close());

async function send(method: string, path: string, init: { body?: string; contentType?: string } = {}) {
  const response = await fetch(`${stub.url}${path}`, {
    method,
    body: init.body,
    headers: init.contentType ? { 'content-type': init.contentType } : undefined,
  });
  return { status: response.status, body: await response.text() };
}

describe('API stub', () => {
  it('answers a route by its name with a success envelope and records the request', async () => {
    stub.on('userInfo', () => makeUser({ name: 'bob' }));
    const answer = await send('GET', '/user/info?lang=en');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ code: 0, msg: 'ok', data: makeUser({ name: 'bob' }) });
    const [request] = stub.requestsTo('userInfo');
    expect(request).toMatchObject({ route: 'userInfo', method: 'GET', path: '/user/info' });
    expect(request.query.get('lang')).toBe('en');
  });

  it('prefers the most literal path and fills path parameters', async () => {
    stub.on('tokenBatchDelete', () => ({ success: 2, failed: 0, total: 2 }));
    stub.on('tokenDelete', () => null);
    await send('DELETE', '/token/batch', { body: '{"token_ids":[1,2]}', contentType: 'application/json' });
    await send('DELETE', '/token/5');
    expect(stub.requestsTo('tokenBatchDelete')[0].json).toEqual({ token_ids: [1, 2] });
    expect(stub.requestsTo('tokenDelete')[0].params).toEqual({ id: '5' });
  });

  it('records form fields', async () => {
    stub.on('userCode', () => ({ resend_after: 60 }));
    await send('POST', '/user/code', {
      body: 'email=a%40b.co&type=register',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(Object.fromEntries(stub.requestsTo('userCode')[0].form)).toEqual({ email: 'a@b.co', type: 'register' });
  });

  it('sends failure envelopes and raw bodies with their own status', async () => {
    stub.on('userInfo', () => fail(409, 1003, 'taken', { error: 'USERNAME_TAKEN' }));
    stub.on('tokenExport', () => raw('a:1:u:p\n', { headers: { 'content-type': 'text/plain' } }));
    expect(await send('GET', '/user/info')).toEqual({
      status: 409,
      body: JSON.stringify({ code: 1003, msg: 'taken', data: { error: 'USERNAME_TAKEN' } }),
    });
    expect(await send('GET', '/token/export')).toEqual({ status: 200, body: 'a:1:u:p\n' });
    expect(stub.problems).toEqual([]);
  });

  it('answers 404 to a route without an answer', async () => {
    expect((await send('GET', '/user/my-ip')).status).toBe(404);
    expect(stub.requestsTo('userMyIp')).toHaveLength(1);
  });

  it('refuses an answer that drifts from the contract and says where', async () => {
    stub.on('userInfo', () => ({ ...makeUser(), balance: '15' }) as never);
    expect((await send('GET', '/user/info')).status).toBe(500);
    expect(stub.problems).toHaveLength(1);
    expect(stub.problems[0]).toContain('"userInfo"');
    expect(stub.problems[0]).toContain('balance');
  });
});
