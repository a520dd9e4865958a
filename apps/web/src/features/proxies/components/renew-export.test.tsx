import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatFen, priceIpFen } from '@proxy/contract';
import { dropConnection, fail, raw } from '../../../test/api-stub';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { makeToken, pageOf } from '../../../test/fixtures';
import { CATALOGUE, TOKENS, answerProxyScreen, clickRowMenu, renderStatic, selectRows } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

// The static list with three IP proxies (1, 3, 4) besides the traffic one.
const TOKENS3 = [
  ...TOKENS,
  makeToken({ token_id: 3, username: 'user3' }),
  makeToken({ token_id: 4, username: 'user4' }),
];

describe('renew', () => {
  async function openRenew() {
    renderStatic();
    await clickRowMenu('user1', 'Renew');
    return findModalWith('Renew user1');
  }

  it('requires a payment option before renewing', async () => {
    api.on('tokenIpRenew', () => ({ success: 1, failed: 0, total: 1, cost: 75, balance: 10 }));
    const dialog = await openRenew();
    await within(dialog).findByText('Balance (available ¥15.00)');
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    expect(await within(dialog).findByText('Please select a payment option first')).toBeTruthy();
    expect(api.requestsTo('tokenIpRenew')).toHaveLength(0);
    fireEvent.click(within(dialog).getByText('Balance (available ¥15.00)'));
    // The period chosen sets the days and the total.
    fireEvent.click(within(dialog).getByText(`7 d · ${formatFen(priceIpFen('static', 7, CATALOGUE))}`));
    await waitFor(() => expect((within(dialog).getByLabelText('Days to add') as HTMLInputElement).value).toBe('7'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('renew-preview-total').textContent).toBe(
        formatFen(priceIpFen('static', 7, CATALOGUE)),
      ),
    );
    fireEvent.click(within(dialog).getByText(`1 d · ${formatFen(priceIpFen('static', 1, CATALOGUE))}`));
    await waitFor(() =>
      expect(within(dialog).getByTestId('renew-preview-total').textContent).toBe(
        formatFen(priceIpFen('static', 1, CATALOGUE)),
      ),
    );
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    await waitFor(() => expect(api.requestsTo('tokenIpRenew')).toHaveLength(1));
    expect(api.requestsTo('tokenIpRenew')[0].json).toEqual({ token_ids: [1], days: 1, payway: 'balance' });
    await waitFor(() => expect(shownMessages('success')).toContain('Renewed 1/1 for ¥75.00'));
  });

  it('starts at the shortest period the balance covers and shows what each period costs', async () => {
    const dialog = await openRenew();
    // ¥15.00 covers 1 day (¥2.50) and 7 days (¥17.50 does not): 1 day, and no "insufficient" at once.
    for (const days of [1, 7, 30, 90, 180, 365]) {
      expect(
        await within(dialog).findByText(`${days} d · ${formatFen(priceIpFen('static', days, CATALOGUE))}`),
      ).toBeTruthy();
    }
    await waitFor(() => expect((within(dialog).getByLabelText('Days to add') as HTMLInputElement).value).toBe('1'));
    fireEvent.click(within(dialog).getByText('Balance (available ¥15.00)'));
    expect(within(dialog).queryByText('Insufficient balance for this renewal.')).toBeNull();
    expect(within(dialog).getByText('Whole days from 1 to 365.')).toBeTruthy();
    // A typed value out of bounds is refused with the reason and kept as typed.
    fireEvent.change(within(dialog).getByLabelText('Days to add'), { target: { value: '-5' } });
    expect(await within(dialog).findByText('Days must be a whole number from 1 to 365')).toBeTruthy();
    expect((within(dialog).getByLabelText('Days to add') as HTMLInputElement).value).toBe('-5');
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    expect(api.requestsTo('tokenIpRenew')).toHaveLength(0);
  });

  it('offers a "Top up" link to /charge when the balance is short, closing the dialog', async () => {
    answerProxyScreen(1);
    const { router } = renderStatic();
    await clickRowMenu('user1', 'Renew');
    const dialog = await findModalWith('Renew user1');
    expect(within(dialog).queryByTestId('top-up-link')).toBeNull();
    fireEvent.click(await within(dialog).findByText('Balance (available ¥1.00)'));
    const link = await within(dialog).findByTestId('top-up-link');
    expect(within(dialog).getByText('Insufficient balance for this renewal.')).toBeTruthy();
    expect(link.getAttribute('href')).toBe('/charge');
    expect(link.textContent).toBe('Top up');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/charge'));
    await waitFor(() => expect(screen.queryByText('Renew user1')).toBeNull());
    expect(api.requestsTo('tokenIpRenew')).toHaveLength(0);
  });

  it('sends an Idempotency-Key, the same one when the renewal is retried after a network failure, a new one at the next opening', async () => {
    let attempts = 0;
    api.on('tokenIpRenew', () => {
      attempts += 1;
      return attempts === 1 ? dropConnection() : { success: 1, failed: 0, total: 1, cost: 2.5, balance: 12.5 };
    });
    const dialog = await openRenew();
    fireEvent.click(await within(dialog).findByText('Balance (available ¥15.00)'));
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    await waitFor(() =>
      expect(shownMessages('error')).toEqual([
        'Renewal failed, please try again later: Network error, please check your connection',
      ]),
    );
    // The dialog stays open; the same renewal again.
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    await waitFor(() => expect(shownMessages('success')).toContain('Renewed 1/1 for ¥2.50'));
    const [first, second] = api.requestsTo('tokenIpRenew');
    const key = first.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.headers['idempotency-key']).toBe(key);
    expect(second.json).toEqual(first.json);
    // Another opening is another renewal.
    await clickRowMenu('user1', 'Renew');
    const again = await findModalWith('Renew user1');
    fireEvent.click(await within(again).findByText('Balance (available ¥15.00)'));
    fireEvent.click(within(again).getByTestId('renew-submit'));
    await waitFor(() => expect(api.requestsTo('tokenIpRenew')).toHaveLength(3));
    expect(api.requestsTo('tokenIpRenew')[2].headers['idempotency-key']).not.toBe(key);
  });

  it('shows the price of each selected proxy, the total and which proxies the balance covers, in renewal order', async () => {
    answerProxyScreen(5);
    api.on('tokenListIspStatic', () => pageOf(TOKENS3));
    api.on('tokenIpRenewPreview', (request) => {
      const body = request.json as { token_ids: number[]; days: number };
      // ¥5.00 covers two days of one proxy (¥2.50 a day) per proxy: the first two of three in id order.
      const price = priceIpFen('static', body.days, CATALOGUE) / 100;
      const ids = [...body.token_ids].sort((a, b) => a - b);
      let left = 5;
      return {
        days: body.days,
        items: ids.map((id) => {
          const isCovered = left >= price;
          if (isCovered) left -= price;
          return {
            token_id: id,
            username: `user${id}`,
            remark: '',
            expires_at: '2026-06-01T00:00:00Z',
            new_expires_at: '2026-06-02T00:00:00Z',
            price,
            is_renewable: true,
            is_covered: isCovered,
          };
        }),
        total: price * ids.length,
        balance: 5,
        covered_count: Math.min(ids.length, Math.floor(5 / price)),
        covered_total: Math.min(ids.length, Math.floor(5 / price)) * price,
      };
    });
    renderStatic();
    await selectRows(3, 1, 4);
    fireEvent.click(await screen.findByRole('button', { name: /Renew/ }));
    const dialog = await findModalWith('Renew the selected proxies (3)');
    const table = await within(dialog).findByRole('region', { name: 'Price of each proxy' });
    await waitFor(() => expect(within(dialog).getByTestId('renew-preview-total').textContent).toBe('¥7.50'));
    const rows = [...table.querySelectorAll('tbody tr[data-row-key]')].map((row) =>
      [...row.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(rows).toEqual([
      ['user1', expect.any(String), '¥2.50', 'Covered'],
      ['user3', expect.any(String), '¥2.50', 'Covered'],
      ['user4', expect.any(String), '¥2.50', 'Not covered'],
    ]);
    expect(within(dialog).getByText('Total (3)')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'Your balance of ¥5.00 covers the first 2 of 3 proxies (¥5.00); top up or select fewer proxies to renew.',
      ),
    ).toBeTruthy();
    expect(api.requestsTo('tokenIpRenewPreview').at(-1)!.json).toEqual({ token_ids: [1, 3, 4], days: 1 });
    expect(api.requestsTo('tokenIpRenew')).toHaveLength(0);
  });

  it('says "renewal failed, please try again later" when the renewal fails', async () => {
    api.on('tokenIpRenew', () => fail(500, 500, 'Server error'));
    const dialog = await openRenew();
    fireEvent.click(await within(dialog).findByText('Balance (available ¥15.00)'));
    fireEvent.click(within(dialog).getByTestId('renew-submit'));
    await waitFor(() => expect(shownMessages('error')).toEqual(['Renewal failed, please try again later']));
  });
});

describe('export', () => {
  const savedCreate = URL.createObjectURL;
  const savedRevoke = URL.revokeObjectURL;
  beforeEach(() => {
    // jsdom has no object URLs; the download itself is the browser's business.
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = () => undefined;
    api.on('tokenExport', () =>
      raw('127.0.0.1:7777:user1:secret-pass-1\n', { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    );
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
    await waitFor(() =>
      expect(api.requestsTo('tokenListIspStatic').some((r) => r.query.get('keyword') === 'office')).toBe(true),
    );
    await runExport([]);
    await waitFor(() => expect(api.requestsTo('tokenExport')).toHaveLength(1));
    expect(Object.fromEntries(api.requestsTo('tokenExport')[0].query)).toEqual({
      format: 'txt',
      line: 'hpup',
      list: 'isp/static',
      keyword: 'office',
    });
    await waitFor(() => expect(shownMessages('success')).toContain('Export downloaded'));
  });

  it('exports the selected ids in the chosen file and line format', async () => {
    renderStatic();
    await selectRows(1, 2);
    await runExport(['CSV', 'user:pass@host:port']);
    await waitFor(() => expect(api.requestsTo('tokenExport')).toHaveLength(1));
    expect(Object.fromEntries(api.requestsTo('tokenExport')[0].query)).toEqual({
      format: 'csv',
      line: 'upahp',
      token_ids: '1,2',
    });
  });

  it("offers the proxy URL only in the selected proxies' own protocol", async () => {
    api.on('tokenListIspStatic', () => pageOf([...TOKENS, makeToken({ token_id: 3, network: 'SOCKS5' })]));
    renderStatic();
    // HTTP proxies: http:// and never socks5://, which the gateway would refuse for them.
    await selectRows(1, 2);
    fireEvent.click(screen.getByText('Export'));
    let dialog = await findModalWith('Export proxies');
    expect(within(dialog).getByText('http://user:pass@host:port')).toBeTruthy();
    expect(within(dialog).queryByText(/socks5:\/\//)).toBeNull();
    fireEvent.click(within(dialog).getByText('http://user:pass@host:port'));
    expect(await within(dialog).findByText(/Each line carries its proxy's own protocol/)).toBeTruthy();
    fireEvent.click(within(dialog).getAllByText('Export').at(-1)!);
    await waitFor(() => expect(api.requestsTo('tokenExport')).toHaveLength(1));
    expect(api.requestsTo('tokenExport')[0].query.get('line')).toBe('http');
    await waitFor(() => expect(shownMessages('success')).toContain('Export downloaded'));

    // Only the SOCKS5 proxy (the clicks untick 1 and 2, tick 3): socks5:// and not http://.
    await selectRows(1, 2, 3);
    // The batch bar's button (the closed dialog keeps its own).
    fireEvent.click(screen.getAllByText('Export')[0]);
    dialog = await findModalWith('Export proxies');
    expect(within(dialog).getByText('socks5://user:pass@host:port')).toBeTruthy();
    expect(within(dialog).queryByText(/http:\/\//)).toBeNull();
    fireEvent.click(within(dialog).getByText('socks5://user:pass@host:port'));
    fireEvent.click(within(dialog).getAllByText('Export').at(-1)!);
    await waitFor(() => expect(api.requestsTo('tokenExport')).toHaveLength(2));
    expect(Object.fromEntries(api.requestsTo('tokenExport')[1].query)).toEqual({
      format: 'txt',
      line: 'socks5',
      token_ids: '3',
    });
  });

  it("offers the URL in each proxy's own protocol for a mix of protocols", async () => {
    api.on('tokenListIspStatic', () => pageOf([...TOKENS, makeToken({ token_id: 3, network: 'SOCKS5' })]));
    renderStatic();
    await selectRows(1, 3);
    fireEvent.click(screen.getByText('Export'));
    const dialog = await findModalWith('Export proxies');
    expect(within(dialog).getByText('http:// | socks5://user:pass@host:port')).toBeTruthy();
  });

  it('says "export failed" when the export fails', async () => {
    api.on('tokenExport', () => fail(500, 500, 'Server error'));
    renderStatic();
    await screen.findByText('user1');
    await runExport([]);
    await waitFor(() => expect(shownMessages('error')).toEqual(['Export failed']));
  });
});
