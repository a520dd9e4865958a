import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { renewalCancelRoutes } from '../routes';

const info = {
  proxy: 'user1',
  amount: 6,
  charge_at: '2026-06-03T23:00:00.000Z',
  expires_at: '2026-06-04T00:00:00.000Z',
};

function renderPage(query: string) {
  return renderAt(`/renewal/cancel${query}`, { featureRoutes: renewalCancelRoutes });
}

describe('the public cancel-this-renewal page', { timeout: 120_000 }, () => {
  it('shows what the link cancels and cancels it on confirmation, without signing in', async () => {
    api.on('renewalCancelInfo', () => ({ ...info, state: 'pending' as const }));
    api.on('renewalCancel', () => ({ proxy: 'user1', auto_renew: false, expires_at: info.expires_at }));
    renderPage('?token=12.abc');
    expect(await screen.findByText('user1')).toBeTruthy();
    expect(screen.getByText('¥6.00')).toBeTruthy();
    expect(api.requestsTo('renewalCancelInfo')[0].query.get('token')).toBe('12.abc');
    expect(api.requestsTo('renewalCancel')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('renewal-cancel-confirm'));
    expect(await screen.findByText('Auto-renewal cancelled')).toBeTruthy();
    expect(api.requestsTo('renewalCancel')[0].json).toEqual({ token: '12.abc' });
    expect(api.requestsTo('renewalCancel')[0].headers.authorization).toBeUndefined();
  });

  it('says when the link was used or has expired, and shows the server’s refusal of a bad link', async () => {
    api.on('renewalCancelInfo', () => ({ ...info, state: 'used' as const }));
    const used = renderPage('?token=12.abc');
    expect(await screen.findByText('This link has already been used.')).toBeTruthy();
    expect(screen.queryByTestId('renewal-cancel-confirm')).toBeNull();
    used.unmount();
    api.on('renewalCancelInfo', () => fail(403, 3011, 'This cancel-renewal link is not valid'));
    renderPage('?token=forged');
    expect(await screen.findByText('This cancel-renewal link is not valid')).toBeTruthy();
  });

  it('shows the refusal when the cancel itself is refused (used meanwhile)', async () => {
    api.on('renewalCancelInfo', () => ({ ...info, state: 'pending' as const }));
    api.on('renewalCancel', () => fail(409, 3012, 'This cancel-renewal link has already been used'));
    renderPage('?token=12.abc');
    fireEvent.click(await screen.findByTestId('renewal-cancel-confirm'));
    await waitFor(() => expect(screen.getByText('This cancel-renewal link has already been used')).toBeTruthy());
  });
});
