import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatFen, priceIpFen, priceTrafficFen } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeArea, makeToken, pageOf } from '../../../test/fixtures';
import { setLanguage } from '../../../lib/i18n';
import { renderAt } from '../../../test/render';
import { ProxyScreen } from './proxy-screen';
import { api, shownMessages } from '../../../test/harness';
import { CATALOGUE, answerProxyScreen, renderStatic } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

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

describe('purchase form', () => {
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

  it('says the bounds under the number fields and refuses values out of them instead of changing them', async () => {
    renderStatic();
    const drawer = await openPurchase();
    expect(within(drawer).getByText('From 1 to 100.')).toBeTruthy();
    expect(within(drawer).getByText('Whole days from 1 to 365.')).toBeTruthy();
    setNumber('Quantity', '-5');
    expect(await within(drawer).findByText('Quantity must be 1-100')).toBeTruthy();
    expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('-5');
    setNumber('Duration', '100000');
    expect(await within(drawer).findByText('Days must be a whole number from 1 to 365')).toBeTruthy();
    expect((screen.getByLabelText('Duration') as HTMLInputElement).value).toBe('100000');
    expect(within(drawer).getByTestId('price-total').textContent).not.toMatch(/¥/);
    fireEvent.click(drawer.querySelector('input[type=radio][value=traffic]')!);
    await screen.findByLabelText('Traffic per proxy');
    expect(within(drawer).getByText('From 0.1 to 100000 GB, one decimal.')).toBeTruthy();
    setNumber('Traffic per proxy', '100001');
    expect(await within(drawer).findByText('Traffic must be from 0.1 to 100000 GB')).toBeTruthy();
    expect(Number((screen.getByLabelText('Traffic per proxy') as HTMLInputElement).value)).toBe(100001);
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    await within(drawer).findByText('Please select a country');
    expect(api.requestsTo('tokenCreateStaticTraffic')).toHaveLength(0);
    expect(api.requestsTo('tokenCreateStaticIp')).toHaveLength(0);
  });

  it('requires a country and sends nothing without one', async () => {
    renderStatic();
    const drawer = await openPurchase();
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    expect(await within(drawer).findByText('Please select a country')).toBeTruthy();
    expect(api.requestsTo('tokenCreateStaticIp')).toHaveLength(0);
  });

  it('shows insufficient balance before submitting', async () => {
    answerProxyScreen(1);
    renderStatic();
    const drawer = await openPurchase();
    expect(await within(drawer).findByTestId('insufficient-balance')).toBeTruthy();
    expect(
      within(drawer).getByText('Insufficient balance: this purchase costs ¥2.50 and your balance is ¥1.00.'),
    ).toBeTruthy();
    expect(within(drawer).getByTestId('buy-submit').hasAttribute('disabled')).toBe(true);
  });

  it('offers a "Top up" link to /charge when the balance is short, closing the drawer', async () => {
    answerProxyScreen(1);
    const { router } = renderStatic();
    const drawer = await openPurchase();
    const link = await within(drawer).findByTestId('top-up-link');
    expect(link.getAttribute('href')).toBe('/charge');
    expect(link.textContent).toBe('Top up');
    expect(drawer.classList.contains('ant-drawer-open')).toBe(true);
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/charge'));
    await waitFor(() => expect(drawer.classList.contains('ant-drawer-open')).toBe(false));
  });

  it('says which areas have stock now and links to a supply request for the others', async () => {
    api.on('tokenAreaCountries', () => [
      makeArea('us', 'United States', '美国', 3),
      makeArea('jp', 'Japan', '日本', 0),
    ]);
    const { router } = renderStatic();
    const drawer = await openPurchase();
    const notice = await within(drawer).findByTestId('stock-notice');
    expect(notice.textContent).toContain('In stock now: United States (3 available).');
    expect(notice.textContent).not.toContain('Japan');
    expect(notice.textContent).toContain('Other countries and regions have no stock at the moment.');
    const link = within(notice).getByTestId('supply-request-link');
    expect(link.getAttribute('href')).toBe('/proxy/isp/supply-request');
    expect(link.textContent).toBe('Request a restock for the region you need');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/proxy/isp/supply-request'));
    await waitFor(() => expect(drawer.classList.contains('ant-drawer-open')).toBe(false));
  });

  it('says plainly when no area has stock', async () => {
    api.on('tokenAreaCountries', () => []);
    renderStatic();
    const drawer = await openPurchase();
    const notice = await within(drawer).findByTestId('stock-notice');
    expect(notice.textContent).toContain('No country or region has stock at the moment.');
    expect(within(notice).getByTestId('supply-request-link').getAttribute('href')).toBe('/proxy/isp/supply-request');
  });

  it('buys with an Idempotency-Key reused on retry, then shows the proxies and refreshes list and balance', async () => {
    let attempts = 0;
    api.on('tokenCreateStaticIp', () => {
      attempts += 1;
      if (attempts === 1) return fail(500, 500, 'Server error');
      return {
        tokens: [
          makeToken({
            token_id: 9,
            username: 'newuser',
            password: 'newpass',
            proxy_url: 'http://newuser:newpass@127.0.0.1:7777',
          }),
        ],
        cost: 2.5,
        balance: 12.5,
        order_id: 1,
      };
    });
    renderStatic();
    const drawer = await openPurchase();
    await chooseCountry(drawer);
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    await waitFor(() => expect(attempts).toBe(1));
    await waitFor(() => expect(shownMessages('error')).toContain('Server error'));
    const listLoads = api.requestsTo('tokenListIspStatic').length;
    const infoLoads = api.requestsTo('userInfo').length;
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    expect(await within(drawer).findByText('http://newuser:newpass@127.0.0.1:7777')).toBeTruthy();
    const [first, second] = api.requestsTo('tokenCreateStaticIp');
    const key = first.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.headers['idempotency-key']).toBe(key);
    expect(second.json).toEqual({
      category: 'isp',
      network: 'HTTP',
      country_id: 'us',
      quantity: 1,
      days: 1,
      auto_renew: false,
    });
    await waitFor(() => expect(api.requestsTo('tokenListIspStatic').length).toBeGreaterThan(listLoads));
    await waitFor(() => expect(api.requestsTo('userInfo').length).toBeGreaterThan(infoLoads));
    // A new submission gets a new key.
    fireEvent.click(within(drawer).getByText('Buy more'));
    await chooseCountry(drawer);
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    await waitFor(() => expect(api.requestsTo('tokenCreateStaticIp')).toHaveLength(3));
    expect(api.requestsTo('tokenCreateStaticIp')[2].headers['idempotency-key']).not.toBe(key);
  });

  it('says "balance refresh failed" when the balance cannot be reloaded after a purchase', async () => {
    api.on('tokenCreateStaticIp', () => ({
      tokens: [makeToken({ token_id: 9 })],
      cost: 2.5,
      balance: 12.5,
      order_id: 1,
    }));
    renderStatic();
    const drawer = await openPurchase();
    await waitFor(() => expect(within(drawer).getByTestId('price-balance').textContent).toBe('¥15.00'));
    api.on('userInfo', () => fail(500, 500, 'Server error'));
    await chooseCountry(drawer);
    fireEvent.click(within(drawer).getByTestId('buy-submit'));
    expect(await within(drawer).findByTestId('purchase-result')).toBeTruthy();
    await waitFor(() => expect(shownMessages('error')).toContain('Balance refresh failed'));
  });

  it('says "failed to fetch countries" when the area list fails', async () => {
    api.on('tokenAreaCountries', () => fail(500, 500, 'Server error'));
    renderStatic();
    await waitFor(() => expect(shownMessages('error')).toContain('Failed to fetch countries'));
  });
});

describe('fair use of IP-billed dynamic proxies', () => {
  const renderDynamic = () => renderAt('/proxy/isp/variable', <ProxyScreen screenKey="dynamic" />);

  it('shows the traffic included per day for IP billing when the operator sets one, in en and zh', async () => {
    api.on('tokenListIspDynamic', () => pageOf([]));
    api.on('tokenFairUse', () => ({ ip_dynamic_gb_per_day: 2.5 }));
    renderDynamic();
    const drawer = await openPurchase();
    expect(await within(drawer).findByText('Fair use: 2.5 GB per day included')).toBeTruthy();
    // Not for traffic billing (the proxy has its own GB).
    fireEvent.click(drawer.querySelector('input[type=radio][value=traffic]')!);
    await screen.findByLabelText('Traffic per proxy');
    expect(within(drawer).queryByText(/Fair use/)).toBeNull();
    act(() => setLanguage('zh'));
    fireEvent.click(drawer.querySelector('input[type=radio][value=ip]')!);
    expect(await within(drawer).findByText('合理使用：每天含 2.5 GB 流量')).toBeTruthy();
  });

  it('shows nothing while the setting is off', async () => {
    api.on('tokenListIspDynamic', () => pageOf([]));
    api.on('tokenFairUse', () => ({ ip_dynamic_gb_per_day: 0 }));
    renderDynamic();
    const drawer = await openPurchase();
    await waitFor(() => expect(api.requestsTo('tokenFairUse')).toHaveLength(1));
    await within(drawer).findByText('Whole days from 1 to 365.');
    expect(within(drawer).queryByText(/Fair use/)).toBeNull();
  });

  it('never shows it on static proxies', async () => {
    api.on('tokenListIspDynamic', () => pageOf([]));
    api.on('tokenFairUse', () => ({ ip_dynamic_gb_per_day: 3 }));
    // The setting is known (cached) when the static screen opens.
    const dynamic = renderDynamic();
    expect(await within(await openPurchase()).findByText('Fair use: 3 GB per day included')).toBeTruthy();
    dynamic.unmount();
    renderStatic();
    const drawer = await openPurchase();
    await within(drawer).findByText('Whole days from 1 to 365.');
    expect(within(drawer).queryByText(/Fair use/)).toBeNull();
  });
});
