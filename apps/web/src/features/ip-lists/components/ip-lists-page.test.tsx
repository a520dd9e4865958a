import { beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TIpListEntry } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { fail } from '../../../test/api-stub';
import { pageOf } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import IpListsPage from './ip-lists-page';

let whitelist: TIpListEntry[] = [];

// A whitelist of an address and a block that can lose its first entry; an empty blacklist.
beforeEach(() => {
  whitelist = [
    { id: 11, ip: '203.0.113.7', kind: 'single', remark: 'office', created_at: '2026-01-01T00:00:00Z' },
    { id: 12, ip: '198.51.100.0/24', kind: 'cidr', remark: '', created_at: '2026-01-01T00:00:00Z' },
  ];
  api.on('userWhitelist', () => pageOf(whitelist));
  api.on('userBlacklist', () => pageOf([]));
  api.on('userIpRemove', (req) => {
    whitelist = whitelist.filter((e) => String(e.id) !== req.params.id);
    return null;
  });
});

function renderPage() {
  return renderAt('/security', <IpListsPage />);
}

describe('security page', { timeout: 60_000 }, () => {
  it('explains the lists and shows the whitelist with kinds', async () => {
    renderPage();
    expect(await screen.findByText('203.0.113.7')).toBeTruthy();
    expect(screen.getByText('CIDR block')).toBeTruthy();
    expect(screen.getByText(/only these source addresses may use your proxies/)).toBeTruthy();
    expect(screen.getByText('An address in both lists is refused.')).toBeTruthy();
    expect(screen.getByText('Changes reach the proxy gateways within 5 seconds.')).toBeTruthy();
    expect(screen.getByText('2 of 500 entries')).toBeTruthy();
  });

  it('deletes an entry after the confirm dialog', async () => {
    renderPage();
    // Role queries are slow on antd's trees in jsdom: labels and texts instead.
    fireEvent.click(await screen.findByLabelText('Delete 203.0.113.7'));
    const content = await screen.findByText('203.0.113.7 will be removed from the whitelist.');
    const dialog = content.closest('.ant-modal-confirm') as HTMLElement;
    expect(dialog).toBeTruthy();
    expect(api.requestsTo('userIpRemove')).toHaveLength(0);
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(screen.queryByText('203.0.113.7')).toBeNull());
    expect(api.requestsTo('userIpRemove').map((r) => r.params.id)).toEqual(['11']);
    expect(shownMessages('success')).toContain('Entry deleted');
  });

  it('says "fetch whitelist failed" when the list cannot be loaded, in both languages', async () => {
    api.on('userWhitelist', () => fail(500, 500, 'Server error', { error: 'INTERNAL' }));
    renderPage();
    await waitFor(() => expect(shownMessages()).toContain('Failed to fetch the whitelist'));
    expect(shownMessages()).not.toContain('Server error');
    expect(await screen.findByText('Retry')).toBeTruthy();
    cleanup();
    queryClient.clear();
    act(() => setLanguage('zh'));
    renderPage();
    await waitFor(() => expect(shownMessages()).toContain('获取白名单失败'));
    fireEvent.click(screen.getAllByText('黑名单')[0]);
    expect(await screen.findByText('黑名单为空')).toBeTruthy();
  });
});
