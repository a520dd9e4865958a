import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatFen, priceIpFen } from '@proxy/contract';
import { ok } from '../../../test/api-server';
import { CATALOGUE, clickRowMenu, fail, findModalWith, messages, renderStatic, selectRows, setUpScreenTests } from '../test/screen-harness';

const { requestsTo, api } = await setUpScreenTests();

describe('renew', { timeout: 60_000 }, () => {
  async function openRenew() {
    renderStatic();
    await clickRowMenu('user1', 'Renew');
    return findModalWith('Renew user1');
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
    const dialog = await findModalWith('Export proxies');
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
