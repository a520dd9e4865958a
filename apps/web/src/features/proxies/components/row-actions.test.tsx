import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeToken, pageOf } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { answerProxyScreen, clickRowMenu, renderStatic } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

describe('row actions', { timeout: 60_000 }, () => {
  it('tests a proxy and shows latency, exit IP and country', async () => {
    api.on('tokenTest', () => ({
      ok: true,
      latency_ms: 123,
      exit_ip: '203.0.113.9',
      country: { code: 'us', name_zh: '美国', name_en: 'United States' },
      status_code: 200,
    }));
    renderStatic();
    fireEvent.click((await screen.findAllByText('Test'))[0]);
    const dialog = await findModalWith('Test user1');
    expect(await within(dialog).findByText('The proxy works')).toBeTruthy();
    expect(within(dialog).getByText('123 ms')).toBeTruthy();
    expect(within(dialog).getByText('203.0.113.9')).toBeTruthy();
    expect(within(dialog).getByText('United States')).toBeTruthy();
  });

  it('shows the refusal reason in place, not as a toast', async () => {
    api.on('tokenTest', () => ({
      ok: false,
      latency_ms: null,
      exit_ip: null,
      country: null,
      status_code: 403,
      error: {
        reason: 'token-disabled',
        message: 'This proxy is disabled',
        message_zh: '该代理已禁用',
        message_en: 'This proxy is disabled',
      },
    }));
    renderStatic();
    fireEvent.click((await screen.findAllByText('Test'))[0]);
    const dialog = await findModalWith('Test user1');
    expect(await within(dialog).findByText('This proxy is disabled')).toBeTruthy();
    expect(within(dialog).getByText('The proxy did not work')).toBeTruthy();
    expect(shownMessages('error')).toEqual([]);
  });

  it('keeps a 100-character remark on one line with an ellipsis, the whole text kept for the hover tooltip', async () => {
    const remark = 'r'.repeat(40) + ' long remark about this proxy ' + 'x'.repeat(30);
    expect(remark).toHaveLength(100);
    api.on('tokenListIspStatic', () => pageOf([makeToken({ token_id: 1, username: 'user1', remark })]));
    renderStatic();
    const cell = await screen.findByTestId('remark-1');
    // antd cuts an editable text to one row (rows: 1) by measuring it, which jsdom cannot do: the ellipsis mode is on
    // and the whole remark is kept for the tooltip and screen readers.
    expect(cell.classList.contains('ant-typography-ellipsis')).toBe(true);
    expect(cell.getAttribute('aria-label')).toBe(remark);
  });

  it('edits the remark inline', async () => {
    api.on('tokenRemark', () => makeToken({ token_id: 1, remark: 'office' }));
    renderStatic();
    const cell = await screen.findByTestId('remark-1');
    fireEvent.click(within(cell.parentElement!).getByLabelText('Edit remark'));
    const input = await waitFor(() => {
      const box = document.querySelector<HTMLTextAreaElement>('.ant-typography-edit-content textarea');
      if (!box) throw new Error('remark editor not open');
      return box;
    });
    fireEvent.change(input, { target: { value: 'office' } });
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 13 });
    fireEvent.keyUp(input, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.requestsTo('tokenRemark')).toHaveLength(1));
    // The id travels in the path (the request layer takes path parameters out of the body).
    expect(api.requestsTo('tokenRemark')[0].json).toEqual({ token_id: 1, remark: 'office' });
    await waitFor(() => expect(shownMessages('success')).toContain('Remark saved'));
  });

  it('disables a proxy and resets its password after confirming', async () => {
    api.on('tokenSetStatus', () => makeToken({ token_id: 1, status: 'disabled' }));
    api.on('tokenReset', () => makeToken({ token_id: 1 }));
    renderStatic();
    await clickRowMenu('user1', 'Disable');
    await waitFor(() => expect(api.requestsTo('tokenSetStatus')).toHaveLength(1));
    expect(api.requestsTo('tokenSetStatus')[0].json).toEqual({ id: 1, status: 'disabled' });
    await clickRowMenu('user1', 'Reset password');
    const dialog = await findModalWith('Reset the password?');
    expect(api.requestsTo('tokenReset')).toHaveLength(0);
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(api.requestsTo('tokenReset')).toHaveLength(1));
  });

  it('turns auto-renew on from the row switch', async () => {
    api.on('tokenIpAutoRenew', () => ({ success: 1, failed: 0, total: 1 }));
    renderStatic();
    fireEvent.click(await screen.findByLabelText('Auto-renew user1'));
    await waitFor(() => expect(api.requestsTo('tokenIpAutoRenew')).toHaveLength(1));
    expect(api.requestsTo('tokenIpAutoRenew')[0].json).toEqual({ token_ids: [1], auto_renew: true });
    await waitFor(() => expect(shownMessages('success')).toContain('Auto-renew turned on'));
  });

  it('shows every field with the proxy URL and QR code, and says when the QR code cannot be saved', async () => {
    renderStatic();
    fireEvent.click((await screen.findAllByText('Details'))[0]);
    const drawer = (await screen.findByText('Proxy #1')).closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByTestId('detail-proxy-url').textContent).toBe(
      'http://user1:secret-pass-1@127.0.0.1:7777',
    );
    expect(within(drawer).queryByText('secret-pass-1')).toBeNull(); // masked until revealed
    fireEvent.click(within(drawer).getByLabelText('Show password user1'));
    expect(within(drawer).getByText('secret-pass-1')).toBeTruthy();
    expect(within(drawer).getByTestId('qr-code')).toBeTruthy();
    // jsdom cannot encode a canvas: the download fails and says so.
    fireEvent.click(within(drawer).getByText('Download QR code'));
    await waitFor(() => expect(shownMessages('error')).toEqual(['QR code generate/download failed']));
  });
});
