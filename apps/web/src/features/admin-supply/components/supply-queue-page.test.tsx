import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ERRORS, type TSupplyAdminRequest } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser, pageOf } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminSupplyRoutes } from '../routes';

const PENDING: TSupplyAdminRequest = {
  request_id: 7,
  type: 'ip',
  product: 'static',
  network: 'HTTP',
  amount: 2,
  days: 30,
  region: 'jp',
  region_name: 'Japan',
  wait_days: 7,
  cost: 120,
  remark: '',
  contact_email: 'ann@example.com',
  status: 'pending',
  submit_time: '2026-05-01T00:00:00.000Z',
  completed_time: null,
  deadline: '2026-05-08T00:00:00.000Z',
  fail_reason: null,
  work_order_id: null,
  user_id: 3,
  user_email: 'ann@example.com',
  available: 0,
};

let isAdmin = true;
let row: TSupplyAdminRequest;

beforeEach(() => {
  isAdmin = true;
  row = PENDING;
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: isAdmin }));
  api.on('adminSupplyList', () => pageOf([row]));
  api.on('adminSupplyTake', () => (row = { ...row, status: 'processing' }));
});

const renderQueue = () => renderAt('/admin/supply', { featureRoutes: adminSupplyRoutes });

describe('supply queue (operator area)', () => {
  it('a customer sees the 403 page and the queue is never asked for', async () => {
    isAdmin = false;
    renderQueue();
    await screen.findByText('No permission');
    expect(api.requestsTo('adminSupplyList')).toHaveLength(0);
  });

  it('takes a request its region can fill at once', async () => {
    row = { ...PENDING, available: 2 };
    renderQueue();
    fireEvent.click(await screen.findByTestId('supply-take-7'));
    await waitFor(() => expect(shownMessages('success')).toContain('Request #7 is now processing'));
  });

  it('warns before taking a request its region cannot fill, then completing it says what the region lacks', async () => {
    const msg = 'Not enough free exits in JP: 2 needed, 0 available; import more first';
    api.on('adminSupplyComplete', () => fail(409, ERRORS.SUPPLY_NO_STOCK.code, msg, { error: 'SUPPLY_NO_STOCK' }));
    renderQueue();
    fireEvent.click(await screen.findByTestId('supply-take-7'));
    const warning = await findModalWith(
      'JP has 0 free exits and this request needs 2: it can be completed only once stock is imported. The customer can still revoke it until then. Take it anyway?',
    );
    expect(api.requestsTo('adminSupplyTake')).toHaveLength(0);
    fireEvent.click(within(warning).getByText('Take anyway'));
    await waitFor(() => expect(shownMessages('success')).toContain('Request #7 is now processing'));
    fireEvent.click(await screen.findByTestId('supply-complete-7'));
    const dialog = await findModalWith('Complete request #7?');
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(shownMessages('error')).toContain(`Complete failed: ${msg}`));
  });

  it('fails a request with a reason; an empty reason is refused', async () => {
    api.on('adminSupplyFail', () => ({ ...row, status: 'failed' as const, fail_reason: 'no upstream' }));
    renderQueue();
    fireEvent.click(await screen.findByTestId('supply-fail-7'));
    const dialog = await findModalWith('Fail request #7');
    fireEvent.click(within(dialog).getByText('Fail and refund'));
    expect(await within(dialog).findByText('Please give the reason of the failure')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('supply-fail-reason'), { target: { value: 'no upstream' } });
    fireEvent.click(within(dialog).getByText('Fail and refund'));
    await waitFor(() => expect(api.requestsTo('adminSupplyFail')).toHaveLength(1));
    expect(api.requestsTo('adminSupplyFail')[0].json).toMatchObject({ reason: 'no upstream' });
  });
});
