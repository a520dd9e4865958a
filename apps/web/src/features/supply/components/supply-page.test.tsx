import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PRICE_CATALOGUE, ERRORS, VALIDATION_MESSAGES, type TSupplyRequest } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { makeArea, makeUser, pageOf } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { supplyRoutes } from '../routes';

const PENDING: TSupplyRequest = {
  request_id: 41,
  type: 'traffic',
  product: 'dynamic',
  network: 'HTTP',
  amount: 2,
  days: null,
  region: 'us',
  region_name: 'United States',
  wait_days: 7,
  cost: 80,
  remark: '',
  contact_email: 'alice@example.com',
  status: 'pending',
  submit_time: '2026-05-01T00:00:00.000Z',
  completed_time: null,
  deadline: '2026-05-08T00:00:00.000Z',
  fail_reason: null,
  work_order_id: null,
};
const DONE: TSupplyRequest = {
  ...PENDING,
  request_id: 40,
  status: 'success',
  completed_time: '2026-05-02T00:00:00.000Z',
};

let records: TSupplyRequest[];

beforeEach(() => {
  records = [PENDING, DONE];
  api.on('userInfo', () => makeUser({ balance: 100, frozen_balance: 0 }));
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('tokenPrices', () => DEFAULT_PRICE_CATALOGUE);
  api.on('tokenAreaCountries', () => [
    makeArea('us', 'United States', '美国', 0),
    makeArea('it', 'Italy', '意大利', 4),
  ]);
  api.on('supplyList', () => pageOf(records));
  api.on('supplyDetail', () => PENDING);
});

function renderPage() {
  return renderAt('/proxy/isp/supply-request', { featureRoutes: supplyRoutes });
}

/** The form shows once the user info (the default contact e-mail) has loaded; the first render of antd in jsdom is slow on a busy machine. */
function formReady() {
  return screen.findByLabelText('Traffic', {}, { timeout: 45_000 });
}

function setNumber(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function chooseRegion(search: string, text: string) {
  // The countries of the inventory arrive after the form.
  await waitFor(() => expect(api.requestsTo('tokenAreaCountries')).toHaveLength(1));
  const input = screen.getByLabelText('Region');
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value: search } });
  await screen.findAllByText(text);
  fireEvent.click(screen.getAllByText(text).at(-1)!);
}

/** Ticks the "I agree" box (its input: jsdom has no label activation). */
function agree() {
  const box = screen.getByTestId('supply-agree');
  const input =
    box.tagName === 'INPUT' ? box : (box.querySelector('input') ?? box.closest('label')!.querySelector('input')!);
  fireEvent.click(input);
}

describe('supply request screen', { timeout: 60_000 }, () => {
  it('shows the terms, the live fee from the price catalogue and the balance after freezing', async () => {
    renderPage();
    expect(await screen.findByTestId('supply-terms')).toBeTruthy();
    await formReady();
    await waitFor(() => expect(screen.getByTestId('supply-fee').textContent).toBe('¥40.00'));
    expect(screen.getByTestId('supply-available').textContent).toBe('¥100.00');
    expect(screen.getByTestId('supply-after').textContent).toBe('¥60.00');
    setNumber('Traffic', '2');
    await waitFor(() => expect(screen.getByTestId('supply-fee').textContent).toBe('¥80.00'));
    expect(screen.getByTestId('supply-after').textContent).toBe('¥20.00');
    setNumber('Traffic', '3');
    // 120 yuan is more than the balance: the top-up link shows before submitting.
    expect(await screen.findByTestId('top-up-link')).toBeTruthy();
  });

  it('refuses to submit without agreeing to the terms, or beyond the bounds, with the catalogue messages', async () => {
    renderPage();
    await formReady();
    setNumber('Traffic', '1001');
    setNumber('Wait days', '31');
    fireEvent.click(screen.getByTestId('supply-submit'));
    expect(await screen.findByText(VALIDATION_MESSAGES.supplyTermsRequired.en)).toBeTruthy();
    expect(screen.getByText(VALIDATION_MESSAGES.supplyTrafficRange.en)).toBeTruthy();
    expect(screen.getByText(VALIDATION_MESSAGES.supplyWaitDaysRange.en)).toBeTruthy();
    expect(screen.getByText(VALIDATION_MESSAGES.supplyRegionRequired.en)).toBeTruthy();
    fireEvent.click(document.querySelector('input[type=radio][value=ip]')!);
    await screen.findByLabelText('Number of IPs');
    setNumber('Number of IPs', '101');
    expect(await screen.findByText(VALIDATION_MESSAGES.supplyIpRange.en)).toBeTruthy();
    expect(api.requestsTo('supplyCreate')).toHaveLength(0);
  });

  it("offers the spec's six regions first, then every other country (uk for the United Kingdom), with or without stock", async () => {
    renderPage();
    await formReady();
    await waitFor(() => expect(api.requestsTo('tokenAreaCountries')).toHaveLength(1));
    const input = screen.getByLabelText('Region');
    fireEvent.mouseDown(input);
    const shown = async () =>
      [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title') ?? o.textContent);
    await waitFor(async () => expect((await shown()).length).toBeGreaterThanOrEqual(6));
    expect((await shown()).slice(0, 6).map((label) => /\((\w+)\)/.exec(label!)![1])).toEqual([
      'cn',
      'us',
      'uk',
      'jp',
      'kr',
      'de',
    ]);
    // A country no exit is in, and the stocked one, are offered too; "gb" only as "uk".
    fireEvent.change(input, { target: { value: 'France' } });
    expect(await screen.findByText('France (fr) · 0 available now')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'Ital' } });
    expect(await screen.findByText('Italy (it) · 4 available now')).toBeTruthy();
    fireEvent.change(input, { target: { value: '(gb)' } });
    await waitFor(async () => expect(await shown()).toEqual([]));
  });

  it('submits the request with an Idempotency-Key and says what was frozen', async () => {
    api.on('supplyCreate', () => ({ ...PENDING, request_id: 42, balance: 20, frozen_balance: 80 }));
    renderPage();
    await formReady();
    setNumber('Traffic', '2');
    await chooseRegion('United', 'United States (us) · 0 available now');
    agree();
    fireEvent.click(screen.getByTestId('supply-submit'));
    await waitFor(() => expect(api.requestsTo('supplyCreate')).toHaveLength(1));
    const sent = api.requestsTo('supplyCreate')[0];
    expect(sent.json).toEqual({
      type: 'traffic',
      product: 'dynamic',
      network: 'HTTP',
      amount: 2,
      region: 'us',
      wait_days: 7,
      remark: '',
      contact_email: 'alice@example.com',
      agree_terms: true,
    });
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(shownMessages('success')).toContain('Supply request #42 submitted; ¥80.00 is frozen'));
  });

  it('a short balance answer shows the reason and a top-up link', async () => {
    const msg =
      'Insufficient balance: this supply request freezes 80.00 yuan and 10.00 yuan is available; please top up first';
    api.on('supplyCreate', () =>
      fail(402, ERRORS.SUPPLY_INSUFFICIENT_BALANCE.code, msg, { error: 'SUPPLY_INSUFFICIENT_BALANCE' }),
    );
    renderPage();
    await formReady();
    await chooseRegion('Italy', 'Italy (it) · 4 available now');
    agree();
    fireEvent.click(screen.getByTestId('supply-submit'));
    await waitFor(() => expect(shownMessages('error')).toContain(msg));
    expect(await screen.findByTestId('top-up-link')).toBeTruthy();
  });

  it('lists the history with status tags; revoke is offered for open requests only and releases the fee', async () => {
    const TAKEN: TSupplyRequest = { ...PENDING, request_id: 42, status: 'processing' };
    records = [TAKEN, PENDING, DONE];
    api.on('supplyRevoke', () => {
      records = [{ ...PENDING, status: 'cancelled', completed_time: '2026-05-01T01:00:00.000Z' }, DONE];
      return records[0];
    });
    renderPage();
    const history = await screen.findByTestId('supply-history');
    await within(history).findByText('Pending');
    expect(within(history).getByText('Success')).toBeTruthy();
    expect(screen.getByTestId('supply-revoke-41')).toBeTruthy();
    // Taken by an operator but not completed: nothing was allocated yet, so it can still be revoked.
    expect(screen.getByTestId('supply-revoke-42')).toBeTruthy();
    expect(screen.queryByTestId('supply-revoke-40')).toBeNull();
    fireEvent.click(screen.getByTestId('supply-revoke-41'));
    const dialog = await findModalWith('Revoke supply request #41?');
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(api.requestsTo('supplyRevoke')).toHaveLength(1));
    await waitFor(() =>
      expect(shownMessages('success')).toContain('Revoked; ¥80.00 is back in your available balance'),
    );
    await within(history).findByText('Cancelled');
    expect(screen.queryByTestId('supply-revoke-41')).toBeNull();
  });

  it('shows a request in detail, work order included', async () => {
    renderPage();
    const history = await screen.findByTestId('supply-history');
    fireEvent.click((await within(history).findAllByText('Detail'))[0]);
    const detail = await screen.findByTestId('supply-detail');
    expect(within(detail).getByText('alice@example.com')).toBeTruthy();
    expect(within(detail).getByText('United States (us)')).toBeTruthy();
    expect(within(detail).getByText('Work order')).toBeTruthy();
  });

  it('speaks Chinese: the terms, the rules and the statuses', async () => {
    act(() => setLanguage('zh'));
    renderPage();
    expect(await screen.findByText('补货条款')).toBeTruthy();
    expect(await screen.findAllByText('待处理')).not.toHaveLength(0);
    fireEvent.click(screen.getByTestId('supply-submit'));
    expect(await screen.findByText(VALIDATION_MESSAGES.supplyTermsRequired.zh)).toBeTruthy();
  });
});
