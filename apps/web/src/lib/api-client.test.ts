import { beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_S } from '@proxy/contract';
import { createApiStub, fail, raw } from '../test/api-stub';
import { makeUser } from '../test/fixtures';
import { api, hardNavigations } from '../test/harness';
import { ApiError, apiHttp, callApi, readBlobText, showPendingSessionMessage } from './api-client';
import { setLanguage } from './i18n';
import { clearShownMessages, getShownMessages } from './message';
import { registerNavigator } from './navigation';
import { clearToken, getAccessToken, saveSession } from './session';
import { STORAGE_PREFIX } from './storage';

let softNavigations: string[] = [];

beforeEach(() => {
  clearToken();
  softNavigations = [];
  registerNavigator((to) => softNavigations.push(to));
  setLanguage('zh');
});

const errors = () =>
  getShownMessages()
    .filter((m) => m.type === 'error')
    .map((m) => m.text);

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

/** Runs a call against an address where nothing listens any more. */
async function againstDeadServer<T>(call: () => Promise<T>): Promise<T> {
  const dead = createApiStub();
  await dead.listen();
  await dead.close();
  apiHttp.defaults.baseURL = dead.url;
  try {
    return await call();
  } finally {
    apiHttp.defaults.baseURL = api.url;
  }
}

describe('request headers', () => {
  it('sends Lang and the bearer token, and resolves data when code is 0', async () => {
    saveSession('tok-123', { remember: true });
    api.on('userInfo', () => makeUser({ name: 'alice' }));
    const data = await callApi('userInfo');
    expect(data).toEqual(makeUser({ name: 'alice' }));
    const request = api.requests.at(-1)!;
    expect(request.headers.lang).toBe('zh');
    expect(request.headers.authorization).toBe('Bearer tok-123');
  });

  it('sends Lang en after switching language and no token to a no-token route', async () => {
    saveSession('tok-123', { remember: false });
    setLanguage('en');
    api.on('userOAuthProviders', () => ({ github: false, google: true, invite_required: false }));
    await callApi('userOAuthProviders');
    const request = api.requests.at(-1)!;
    expect(request.headers.lang).toBe('en');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('fills path parameters and sends the rest as query on GET', async () => {
    saveSession('tok', { remember: true });
    api.on('userNotificationList', () => ({ records: [], total: 0, page: 2, page_size: 5, unread: 0 }));
    await callApi('userNotificationList', { page: 2, page_size: 5 });
    expect(api.requests.at(-1)!.query.get('page')).toBe('2');
    api.on('userIpRemove', () => null);
    await callApi('userIpRemove', { id: 42 });
    expect(api.requests.at(-1)!.path).toBe('/user/remove/ip/42');
    expect(api.requestsTo('userIpRemove')[0].params).toEqual({ id: '42' });
  });
});

describe('body encoding', () => {
  it('sends form routes as application/x-www-form-urlencoded', async () => {
    api.on('userLogin', () => ({ token: 't', expires_in: 1, is_new_user: false }));
    await callApi('userLogin', { email: 'a@b.co', password: 'secret pass', remember: true });
    const request = api.requests.at(-1)!;
    expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(request.form)).toEqual({ email: 'a@b.co', password: 'secret pass', remember: 'true' });
  });

  it('sends JSON routes as JSON', async () => {
    saveSession('tok', { remember: true });
    api.on('userUpdateProfile', () => makeUser({ name: 'bob' }));
    await callApi('userUpdateProfile', { username: 'bob' });
    const request = api.requests.at(-1)!;
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(request.json).toEqual({ username: 'bob' });
  });
});

describe('the code 0 rule and error handling', () => {
  it('rejects a non-zero body code with its message and toasts it', async () => {
    saveSession('tok', { remember: true });
    api.on('userInfo', () => fail(200, 2001, '余额不足', { error: 'INSUFFICIENT_BALANCE' }));
    const error = await rejection(callApi('userInfo'));
    expect(error.code).toBe(2001);
    expect(error.msg).toBe('余额不足');
    expect(error.data).toEqual({ error: 'INSUFFICIENT_BALANCE' });
    expect(errors()).toEqual(['余额不足']);
  });

  it('skipTips suppresses the toast but still rejects', async () => {
    saveSession('tok', { remember: true });
    api.on('userInfo', () => fail(400, 400, 'bad'));
    const error = await rejection(callApi('userInfo', undefined, { skipTips: true }));
    expect(error.code).toBe(400);
    expect(errors()).toEqual([]);
  });

  it.each([
    [400, '请求参数错误', 'Invalid request parameters'],
    [403, '没有权限', 'Permission denied'],
    [404, '资源或接口不存在', 'Resource or endpoint not found'],
    [500, '服务器异常', 'Server error'],
    [418, '【418】: 未知异常!', '[418]: Unknown error!'],
  ])('HTTP %i without a message shows the default text in zh and en', async (status, zh, en) => {
    saveSession('tok', { remember: true });
    api.on('userInfo', () => raw('', { status }));
    const zhError = await rejection(callApi('userInfo'));
    expect(zhError.code).toBe(status);
    expect(zhError.status).toBe(status);
    expect(zhError.msg).toBe(zh);
    setLanguage('en');
    const enError = await rejection(callApi('userInfo'));
    expect(enError.msg).toBe(en);
    expect(errors()).toEqual([zh, en]);
  });

  it('an envelope with an empty message gets the default text of its code', async () => {
    saveSession('tok', { remember: true });
    api.on('userInfo', () => fail(403, 403, ''));
    expect((await rejection(callApi('userInfo'))).msg).toBe('没有权限');
  });

  it('body code -401 clears the token, shows the revoked message and hard-navigates to /login with the redirect query', async () => {
    saveSession('tok', { remember: true });
    window.history.replaceState(null, '', '/proxy/isp/static?page=2');
    try {
      api.on('userInfo', () => fail(401, -401, 'whatever'));
      const error = await rejection(callApi('userInfo'));
      expect(error.code).toBe(-401);
      expect(error.msg).toBe('登录已失效，请重新登录！');
      expect(getAccessToken()).toBeNull();
      expect(errors()).toEqual(['登录已失效，请重新登录！']);
      expect(hardNavigations).toEqual(['/login?redirect=%2Fproxy%2Fisp%2Fstatic%3Fpage%3D2']);
      expect(softNavigations).toEqual([]);
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('the revoked message outlives the page load to /login: the next page shows it once', async () => {
    saveSession('tok', { remember: true });
    api.on('userInfo', () => fail(401, -401, 'whatever'));
    await rejection(callApi('userInfo'));
    clearShownMessages();
    // What the shell does after the page load.
    showPendingSessionMessage();
    showPendingSessionMessage();
    expect(errors()).toEqual(['登录已失效，请重新登录！']);
  });

  it('HTTP 401 logs out with the expired message: token gone, to /login with a redirect query', async () => {
    saveSession('tok', { remember: false });
    api.on('userInfo', () => raw('', { status: 401 }));
    const error = await rejection(callApi('userInfo'));
    expect(error.code).toBe(401);
    expect(error.msg).toBe('登录已过期，请重新登录！');
    expect(errors()).toEqual(['登录已过期，请重新登录！']);
    expect(getAccessToken()).toBeNull();
    expect(softNavigations).toEqual(['/login?redirect=%2F']);
  });

  it('says the session expired in English too, and once for calls refused together, even background ones (skipTips)', async () => {
    setLanguage('en');
    saveSession('tok', { remember: false });
    api.on('userInfo', () => fail(401, 401, 'Unauthorized'));
    api.on('userNotificationList', () => fail(401, 401, 'Unauthorized'));
    const refused = await Promise.all([
      rejection(callApi('userInfo')),
      rejection(callApi('userNotificationList', { page: 1, page_size: 1 }, { skipTips: true })),
      rejection(callApi('userInfo', undefined, { skipTips: true })),
    ]);
    expect(refused.map((e) => e.code)).toEqual([401, 401, 401]);
    expect(errors()).toEqual(['Your session has expired, please sign in again!']);
    // A later call without a token is refused locally, and not told again.
    await rejection(callApi('userInfo'));
    expect(errors()).toHaveLength(1);
    // Signing in again arms the message for the next session.
    saveSession('tok2', { remember: false });
    await rejection(callApi('userInfo', undefined, { skipTips: true }));
    expect(errors()).toEqual([
      'Your session has expired, please sign in again!',
      'Your session has expired, please sign in again!',
    ]);
  });

  it('a 401 status with another body code (wrong password) does not log out', async () => {
    saveSession('tok', { remember: true });
    api.on('userLogin', () => fail(401, 1001, '账号或密码错误'));
    const error = await rejection(callApi('userLogin', { email: 'a@b.co', password: 'x' }));
    expect(error.code).toBe(1001);
    expect(getAccessToken()).toBe('tok');
    expect(softNavigations).toEqual([]);
  });

  it('a call that needs a token without one is rejected locally as 401', async () => {
    const error = await rejection(callApi('userInfo'));
    expect(error.code).toBe(401);
    expect(error.msg).toBe('登录已过期，请重新登录！');
    expect(api.requests).toHaveLength(0);
    expect(errors()).toEqual(['登录已过期，请重新登录！']);
    expect(softNavigations).toEqual(['/login?redirect=%2F']);
  });

  it('a network error without a response toasts the error message', async () => {
    const error = await rejection(againstDeadServer(() => callApi('userOAuthProviders')));
    expect(error.status).toBeUndefined();
    expect(error.msg).toBe('网络异常，请检查网络连接');
    expect(errors()).toEqual(['网络异常，请检查网络连接']);
  });
});

describe('failure messages of an action', () => {
  const failed = { failureMessage: '导出失败' };
  beforeEach(() => saveSession('tok', { remember: true }));

  it("follows the action's message with the server's reason when the server refused", async () => {
    api.on('tokenExport', () => fail(409, 3001, '所选地区库存不足'));
    const error = await rejection(callApi('tokenExport', {}, failed));
    expect(error.msg).toBe('所选地区库存不足');
    expect(errors()).toEqual(['导出失败: 所选地区库存不足']);
  });

  it("shows the action's message alone for a server fault or a reason that says the same", async () => {
    api.on('tokenExport', () => fail(500, 500, '服务器异常'));
    await rejection(callApi('tokenExport', {}, failed));
    api.on('tokenExport', () => fail(400, 1010, '导出失败'));
    await rejection(callApi('tokenExport', {}, failed));
    expect(errors()).toEqual(['导出失败', '导出失败']);
  });

  it('names a network failure', async () => {
    await rejection(againstDeadServer(() => callApi('userOAuthProviders', undefined, failed)));
    expect(errors()).toEqual(['导出失败: 网络异常，请检查网络连接']);
  });

  it('leaves session failures their own message', async () => {
    api.on('tokenExport', () => fail(401, -401, 'revoked'));
    await rejection(callApi('tokenExport', {}, failed));
    saveSession('tok', { remember: true });
    api.on('tokenExport', () => raw('', { status: 401 }));
    await rejection(callApi('tokenExport', {}, failed));
    expect(errors()).toEqual(['登录已失效，请重新登录！', '登录已过期，请重新登录！']);
  });

  it('is not shown with skipTips', async () => {
    api.on('tokenExport', () => fail(409, 3001, '所选地区库存不足'));
    await rejection(callApi('tokenExport', {}, { ...failed, skipTips: true }));
    expect(errors()).toEqual([]);
  });
});

describe('blob routes', () => {
  it('resolve with the raw data', async () => {
    saveSession('tok', { remember: true });
    api.on('tokenExport', () => raw('host:1:u:p\n', { headers: { 'content-type': 'text/plain' } }));
    const blob = await callApi('tokenExport', { format: 'txt' });
    expect(blob).toBeInstanceOf(Blob);
    expect(await readBlobText(blob as Blob)).toBe('host:1:u:p\n');
  });

  it('still report an error envelope', async () => {
    saveSession('tok', { remember: true });
    api.on('tokenExport', () => fail(501, 501, '该功能暂未开放'));
    const error = await rejection(callApi('tokenExport', {}));
    expect(error.code).toBe(501);
    expect(error.msg).toBe('该功能暂未开放');
  });
});

describe('token storage', () => {
  it('keeps every key under the fixed prefix', async () => {
    saveSession('tok', { remember: true });
    for (const key of Object.keys(localStorage)) expect(key.startsWith(STORAGE_PREFIX)).toBe(true);
    expect(JSON.parse(localStorage.getItem(`${STORAGE_PREFIX}TOKEN`)!).expire).toBe(ACCESS_TOKEN_TTL_S);
  });
});
