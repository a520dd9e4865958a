import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fail } from '../../../test/api-stub';
import { api, shownMessages } from '../../../test/harness';
import { answerProxyScreen, renderStatic } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

const renewal = {
  renewal_id: 7,
  token_id: 1,
  amount: 2.5,
  renewed_at: '2026-06-01T10:00:00.000Z',
  previous_expires_at: '2026-06-01T10:30:00.000Z',
  new_expires_at: '2026-06-02T10:30:00.000Z',
  undo_until: '2026-06-02T10:00:00.000Z',
};

async function openDetails() {
  renderStatic();
  fireEvent.click((await screen.findAllByText('Details'))[0]);
  return (await screen.findByText('Proxy #1')).closest('.ant-drawer') as HTMLElement;
}

describe('undo an auto-renewal in the proxy details', { timeout: 120_000 }, () => {
  it('undoes the latest auto-renewal after a confirmation: the refund and the old expiry are shown', async () => {
    api.on('tokenAutoRenewal', () => ({ ...renewal, undo_refusal: null }));
    api.on('tokenAutoRenewUndo', () => ({
      token_id: 1,
      refunded: 2.5,
      expires_at: renewal.previous_expires_at,
      balance: 17.5,
    }));
    const drawer = await openDetails();
    const box = await within(drawer).findByTestId('auto-renew-undo');
    expect(box.textContent).toContain('for ¥2.50.');
    fireEvent.click(within(box).getByRole('button', { name: /Undo this renewal/ }));
    // The confirmation names the refund before anything is sent.
    expect(await screen.findByText('Undo the auto-renewal and refund ¥2.50?')).toBeTruthy();
    expect(api.requestsTo('tokenAutoRenewUndo')).toHaveLength(0);
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(api.requestsTo('tokenAutoRenewUndo')).toHaveLength(1));
    expect(api.requestsTo('tokenAutoRenewUndo')[0].path).toBe('/token/auto-renew/undo/1');
    await waitFor(() =>
      expect(shownMessages('success').some((m) => m.startsWith('Renewal undone: ¥2.50 refunded'))).toBe(true),
    );
  });

  it('says why an auto-renewal cannot be undone and offers no button', async () => {
    api.on('tokenAutoRenewal', () => ({ ...renewal, undo_refusal: 'used' as const }));
    const drawer = await openDetails();
    expect((await within(drawer).findByTestId('auto-renew-undo')).textContent).toContain(
      'It cannot be undone: the proxy carried traffic since.',
    );
    expect(within(drawer).queryByRole('button', { name: /Undo this renewal/ })).toBeNull();
  });

  it('toasts "Undo failed" with the reason when the server refuses', async () => {
    api.on('tokenAutoRenewal', () => ({ ...renewal, undo_refusal: null }));
    api.on('tokenAutoRenewUndo', () =>
      fail(409, 3016, 'The proxy has carried traffic since the auto-renewal, so it cannot be undone'),
    );
    const drawer = await openDetails();
    fireEvent.click(
      within(await within(drawer).findByTestId('auto-renew-undo')).getByRole('button', { name: /Undo this renewal/ }),
    );
    await waitFor(() => expect(document.querySelector('.ant-popconfirm .ant-btn-primary')).toBeTruthy());
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await waitFor(() =>
      expect(shownMessages('error')).toEqual([
        'Undo failed: The proxy has carried traffic since the auto-renewal, so it cannot be undone',
      ]),
    );
  });
});
