import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { supplyContactRoutes } from '../routes';

function renderPage(query: string) {
  return renderAt(`/supply/contact/confirm${query}`, { featureRoutes: supplyContactRoutes });
}

describe('the public contact address confirmation page', { timeout: 120_000 }, () => {
  it('confirms only on a click, without signing in', async () => {
    act(() => setLanguage('en'));
    api.on('supplyContactConfirm', () => ({ email: 'ops@partner.example' }));
    renderPage('?token=tok-1');
    expect(await screen.findByTestId('contact-confirm')).toBeTruthy();
    expect(api.requestsTo('supplyContactConfirm')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('contact-confirm'));
    expect(
      await screen.findByText('Confirmed: ops@partner.example now receives the supply request e-mails'),
    ).toBeTruthy();
    expect(api.requestsTo('supplyContactConfirm')[0].json).toEqual({ token: 'tok-1' });
    expect(api.requestsTo('supplyContactConfirm')[0].headers.authorization).toBeUndefined();
  });

  it("shows the server's refusal of a bad link in the page's language", async () => {
    act(() => setLanguage('zh'));
    api.on('supplyContactConfirm', () => fail(400, 6111, '联系邮箱确认链接无效或已过期'));
    renderPage('?token=old');
    fireEvent.click(await screen.findByTestId('contact-confirm'));
    expect(await screen.findByText('联系邮箱确认链接无效或已过期')).toBeTruthy();
    act(() => setLanguage('en'));
  });
});
