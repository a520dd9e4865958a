import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PRICE_CATALOGUE, formatFen, priceIpFen, priceTrafficFen, type TPriceCatalogue } from '@proxy/contract';
import { apiHttp } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import { clearShownMessages, getShownMessages } from '../../../lib/message';
import { queryClient } from '../../../lib/query-client';
import { clearToken, saveSession } from '../../../lib/session';
import { ok, startTestApiServer, type TReply } from '../test/api-test-server';
import { makeToken, makeUser } from '../test/fixtures';
import { renderScreen } from '../test/render';
import { ProxyScreen } from './proxy-screen';

const api = await startTestApiServer();
const previousBase = apiHttp.defaults.baseURL;
apiHttp.defaults.baseURL = api.apiUrl;

// Prices that differ from the defaults, so a preview computed without the server's catalogue would show.
const CATALOGUE: TPriceCatalogue = { ...DEFAULT_PRICE_CATALOGUE, static_ip_day_fen: 250, static_ip_month_fen: 6600, residential_traffic_tier0_fen: 4100 };
const tokens = [makeToken({ token_id: 1 }), makeToken({ token_id: 2, type: 'traffic', usage: { used_bytes: 0, limit_bytes: 1024 ** 3 } })];
const fail = (status: number, code: number, msg: string): TReply => ({ status, json: { code, msg, data: null } });

function answerDefaults(balance = 15) {
  api.on('GET /api/user/info', () => ok(makeUser(balance)));
  api.on('GET /api/user/notification/list', () => ok({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('GET /api/token/prices', () => ok(CATALOGUE));
  api.on('GET /api/token/list/area/countries', () => ok([{ id: 'us', name: 'United States', name_zh: '美国', name_en: 'United States', available: 3 }]));
  api.on('GET /api/token/list/area/state', () => ok([]));
  api.on('GET /api/token/list/isp/static', () => ok({ records: tokens, total: tokens.length, page: 1, page_size: 10 }));
  api.on('GET /api/token/payway/list', () => ok([{ id: 'balance', name: 'Balance', name_zh: '余额支付', name_en: 'Balance', balance }]));
}

beforeEach(() => {
  act(() => setLanguage('en'));
  saveSession('test-session', { remember: false });
  queryClient.clear();
  clearShownMessages();
  api.requests.length = 0;
  answerDefaults();
});
afterEach(() => cleanup());
afterAll(async () => {
  clearToken();
  apiHttp.defaults.baseURL = previousBase;
  await api.close();
});

function renderStatic() {
  return renderScreen('/proxy/isp/static', <ProxyScreen screenKey="static" />);
}

const requestsTo = (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === `/api${path}`);
const messages = (type: string) => getShownMessages().filter((m) => m.type === type).map((m) => m.text);

async function openPurchase() {
  fireEvent.click(await screen.findByText('Buy proxies'));
  return (await screen.findByTestId('price-preview')).closest('.ant-drawer') as HTMLElement;
}

function setNumber(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function chooseCountry(drawer: HTMLElement) {
  fireEvent.mouseDown(within(drawer).getByLabelText('Country / region'));
  // An earlier dropdown may still be in the document: the newest is last.
  await screen.findAllByText('United States (3 available)');
  fireEvent.click(screen.getAllByText('United States (3 available)').at(-1)!);
}

/** Ticks the row checkboxes of the given token ids (row order is the answer's). */
async function selectRows(...ids: number[]) {
  await screen.findByText('user1');
  const rows = document.querySelectorAll<HTMLTableRowElement>('.ant-table-tbody tr[data-row-key]');
  for (const row of rows) {
    if (ids.includes(Number(row.dataset.rowKey))) fireEvent.click(row.querySelector('input[type=checkbox]')!);
  }
}

describe('purchase form', { timeout: 60_000 }, () => {
  it('previews the price with the server catalogue and the contract functions', async () => {
    renderStatic();
    const drawer = await openPurchase();
    const total = () => within(drawer).getByTestId('price-total').textContent;
    await waitFor(() => expect(total()).toBe(formatFen(priceIpFen('static', 1, CATALOGUE))));
    expect(total()).toBe('¥2.50');
    setNumber('Duration', '31');
    setNumber('Quantity', '3');
    await waitFor(() => expect(total()).toBe(formatFen(priceIpFen('static', 31, CATALOGUE) * 3)));
    fireEvent.click(drawer.querySelector('input[type=radio][value=traffic]')!);
    await screen.findByLabelText('Traffic per proxy');
    setNumber('Traffic per proxy', '0.3');
    await waitFor(() => expect(total()).toBe(formatFen(priceTrafficFen('static', 0.9, CATALOGUE))));
    expect(within(drawer).getByTestId('price-balance').textContent).toBe('¥15.00');
  });

  it('requires a country and sends nothing without one', async () => {
    renderStatic();
    const drawer = await openPurchase();
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    expect(await within(drawer).findByText('Please select a country')).toBeTruthy();
    expect(requestsTo('POST', '/token/static/ip')).toHaveLength(0);
  });

  it('shows insufficient balance before submitting', async () => {
    answerDefaults(1);
    renderStatic();
    const drawer = await openPurchase();
    expect(await within(drawer).findByTestId('insufficient-balance')).toBeTruthy();
    expect(within(drawer).getByText('Insufficient balance: this purchase costs ¥2.50 and your balance is ¥1.00.')).toBeTruthy();
    expect(within(drawer).getByTestId('buy-submit').hasAttribute('disabled')).toBe(true);
  });

  it('buys with an Idempotency-Key reused on retry, then shows the proxies and refreshes list and balance', async () => {
    let attempts = 0;
    api.on('POST /api/token/static/ip', () => {
      attempts += 1;
      if (attempts === 1) return fail(500, 500, 'Server error');
      return ok({ tokens: [makeToken({ token_id: 9, username: 'newuser', password: 'newpass', proxy_url: 'http://newuser:newpass@127.0.0.1:7777' })], cost: 2.5, balance: 12.5, order_id: 1 });
    });
    renderStatic();
    const drawer = await openPurchase();
    await chooseCountry(drawer);
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    await waitFor(() => expect(attempts).toBe(1));
    await waitFor(() => expect(messages('error')).toContain('Server error'));
    const listLoads = requestsTo('GET', '/token/list/isp/static').length;
    const infoLoads = requestsTo('GET', '/user/info').length;
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    expect(await within(drawer).findByText('http://newuser:newpass@127.0.0.1:7777')).toBeTruthy();
    const [first, second] = requestsTo('POST', '/token/static/ip');
    const key = first.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.headers['idempotency-key']).toBe(key);
    expect(JSON.parse(second.body)).toEqual({ category: 'isp', network: 'HTTP', country_id: 'us', quantity: 1, days: 1, auto_renew: false });
    await waitFor(() => expect(requestsTo('GET', '/token/list/isp/static').length).toBeGreaterThan(listLoads));
    await waitFor(() => expect(requestsTo('GET', '/user/info').length).toBeGreaterThan(infoLoads));
    // A new submission gets a new key.
    fireEvent.click(within(drawer).getByText('Buy more'));
    await chooseCountry(drawer);
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    await waitFor(() => expect(requestsTo('POST', '/token/static/ip')).toHaveLength(3));
    expect(requestsTo('POST', '/token/static/ip')[2].headers['idempotency-key']).not.toBe(key);
  });

  it('says "failed to fetch countries" when the area list fails', async () => {
    api.on('GET /api/token/list/area/countries', () => fail(500, 500, 'Server error'));
    renderStatic();
    await waitFor(() => expect(messages('error')).toContain('Failed to fetch countries'));
  });
});

describe('batch bar', { timeout: 60_000 }, () => {
  it('refuses a batch with no selection', async () => {
    renderStatic();
    await screen.findByText('user1');
    fireEvent.click(screen.getByText('Batch delete'));
    fireEvent.click(screen.getByText('Batch restore'));
    await waitFor(() => expect(messages('warning')).toEqual(['Please select at least one item', 'Please select at least one item']));
    expect(api.requests.filter((r) => r.path.includes('/token/batch'))).toHaveLength(0);
  });

  it('shows the batch delete answer as "Successfully deleted" and "Failed to delete", in en and zh', async () => {
    api.on('DELETE /api/token/batch', () => ok({ success: 1, failed: 1, total: 2 }));
    renderStatic();
    await selectRows(1, 2);
    fireEvent.click(screen.getByText('Batch delete'));
    const dialog = (await screen.findByText('The selected proxies (2) stop working. They can be restored later.')).closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(messages('success')).toContain('Successfully deleted 1/2'));
    expect(messages('error')).toContain('Failed to delete 1/2');
    expect(JSON.parse(requestsTo('DELETE', '/token/batch')[0].body)).toEqual({ token_ids: [1, 2] });
    cleanup();

    clearShownMessages();
    act(() => setLanguage('zh'));
    renderStatic();
    await selectRows(1);
    fireEvent.click(screen.getByText('批量删除'));
    const zhDialog = (await screen.findByText('所选代理（1 个）将停止工作，之后可以恢复。')).closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(zhDialog).getByText('确定'));
    await waitFor(() => expect(messages('success')).toContain('成功删除 1/2'));
    expect(messages('error')).toContain('删除失败 1/2');
  });

  it('says "Batch delete failed, please try again later" when the call fails', async () => {
    api.on('DELETE /api/token/batch', () => fail(500, 500, 'Server error'));
    renderStatic();
    await selectRows(2);
    fireEvent.click(screen.getByText('Batch delete'));
    const dialog = (await screen.findByText('The selected proxies (1) stop working. They can be restored later.')).closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(messages('error')).toEqual(['Batch delete failed, please try again later']));
  });

  it('restores the selection and reports the counts', async () => {
    api.on('PUT /api/token/batch/restore', () => ok({ success: 2, failed: 0, total: 2 }));
    renderStatic();
    await selectRows(1, 2);
    fireEvent.click(screen.getByText('Batch restore'));
    await waitFor(() => expect(messages('success')).toContain('Successfully restored 2/2'));
    expect(messages('error')).toEqual([]);
  });
});

describe('renew', { timeout: 60_000 }, () => {
  async function openRenew() {
    renderStatic();
    fireEvent.click(await screen.findByLabelText('More actions for user1'));
    const menu = await waitFor(() => document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden)') as HTMLElement);
    fireEvent.click(within(menu).getByText('Renew'));
    return (await screen.findByText('Renew user1')).closest('.ant-modal') as HTMLElement;
  }

  it('requires a payment option before renewing', async () => {
    api.on('POST /api/token/ip/renew', () => ok({ success: 1, failed: 0, total: 1, cost: 75, balance: 10 }));
    const dialog = await openRenew();
    await within(dialog).findByText('Balance (available ¥15.00)');
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    expect(await within(dialog).findByText('Please select a payment option first')).toBeTruthy();
    expect(requestsTo('POST', '/token/ip/renew')).toHaveLength(0);
    fireEvent.click(within(dialog).getByText('Balance (available ¥15.00)'));
    // 30 days by default at the catalogue's month price.
    expect(within(dialog).getByText(formatFen(priceIpFen('static', 30, CATALOGUE)))).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    await waitFor(() => expect(requestsTo('POST', '/token/ip/renew')).toHaveLength(1));
    expect(JSON.parse(requestsTo('POST', '/token/ip/renew')[0].body)).toEqual({ token_ids: [1], days: 30, payway: 'balance' });
    await waitFor(() => expect(messages('success')).toContain('Renewed 1/1 for ¥75.00'));
  });

  it('says "renewal failed, please try again later" when the renewal fails', async () => {
    api.on('POST /api/token/ip/renew', () => fail(500, 500, 'Server error'));
    const dialog = await openRenew();
    fireEvent.click(await within(dialog).findByText('Balance (available ¥15.00)'));
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    await waitFor(() => expect(messages('error')).toEqual(['Renewal failed, please try again later']));
  });
});

describe('export', { timeout: 60_000 }, () => {
  const savedCreate = URL.createObjectURL;
  const savedRevoke = URL.revokeObjectURL;
  beforeEach(() => {
    // jsdom has no object URLs; the download itself is the browser's business.
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = () => undefined;
    api.on('GET /api/token/export', () => ({ raw: '127.0.0.1:7777:user1:secret-pass-1\n', headers: { 'content-type': 'text/plain; charset=utf-8' } }));
  });
  afterAll(() => {
    URL.createObjectURL = savedCreate;
    URL.revokeObjectURL = savedRevoke;
  });

  async function runExport(choices: string[]) {
    fireEvent.click(screen.getByText('Export'));
    const dialog = (await screen.findByText('Export proxies')).closest('.ant-modal') as HTMLElement;
    for (const choice of choices) fireEvent.click(within(dialog).getByText(choice));
    fireEvent.click(within(dialog).getAllByText('Export').at(-1)!);
  }

  it('exports the current filter when nothing is selected', async () => {
    renderStatic();
    await screen.findByText('user1');
    fireEvent.change(screen.getByPlaceholderText('Remark or username'), { target: { value: 'office' } });
    fireEvent.click(screen.getByText('Search'));
    await waitFor(() => expect(requestsTo('GET', '/token/list/isp/static').some((r) => r.query.get('keyword') === 'office')).toBe(true));
    await runExport([]);
    await waitFor(() => expect(requestsTo('GET', '/token/export')).toHaveLength(1));
    expect(Object.fromEntries(requestsTo('GET', '/token/export')[0].query)).toEqual({ format: 'txt', line: 'hpup', list: 'isp/static', keyword: 'office' });
    await waitFor(() => expect(messages('success')).toContain('Export downloaded'));
  });

  it('exports the selected ids in the chosen file and line format', async () => {
    renderStatic();
    await selectRows(1, 2);
    await runExport(['CSV', 'socks5://user:pass@host:port']);
    await waitFor(() => expect(requestsTo('GET', '/token/export')).toHaveLength(1));
    expect(Object.fromEntries(requestsTo('GET', '/token/export')[0].query)).toEqual({ format: 'csv', line: 'socks5', token_ids: '1,2' });
  });

  it('says "export failed" when the export fails', async () => {
    api.on('GET /api/token/export', () => fail(500, 500, 'Server error'));
    renderStatic();
    await screen.findByText('user1');
    await runExport([]);
    await waitFor(() => expect(messages('error')).toEqual(['Export failed']));
  });
});
