import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TUsageLogEntry } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import UsageLogPage from './usage-log-page';

const ENTRY: TUsageLogEntry = {
  id: 3,
  token_id: 7,
  protocol: 'connect',
  source_ip: '203.0.113.7',
  target_host: 'example.com',
  target_port: 443,
  started_at: '2026-06-20T10:00:00.000Z',
  ended_at: '2026-06-20T10:00:02.000Z',
  bytes_up: 812,
  bytes_down: 5120,
  outcome: 'closed',
  reason: null,
  uncharged_bytes: 0,
};
/** A tunnel dropped before the target's first byte: its bytes were metered but not charged. */
const LOST: TUsageLogEntry = {
  ...ENTRY,
  id: 4,
  target_host: 'lost.example.net',
  bytes_up: 600,
  bytes_down: 0,
  uncharged_bytes: 600,
};
const REFUSED: TUsageLogEntry = {
  ...ENTRY,
  id: 2,
  outcome: 'refused',
  reason: 'token-expired',
  bytes_up: 0,
  bytes_down: 0,
};

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1 }));
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('tokenUsageLog', (req) => {
    if (req.params.token_id !== '7') return fail(404, 404, 'Not found', { error: 'NOT_FOUND' });
    const outcome = req.query.get('outcome');
    const records = (req.query.get('target') === 'lost' ? [LOST, ENTRY] : [ENTRY, REFUSED]).filter(
      (e) => !outcome || e.outcome === outcome,
    );
    const up = records.reduce((s, r) => s + r.bytes_up, 0);
    const down = records.reduce((s, r) => s + r.bytes_down, 0);
    const uncharged = records.reduce((s, r) => s + r.uncharged_bytes, 0);
    return {
      records,
      total: records.length,
      page: 1,
      page_size: 20,
      totals: {
        connections: records.length,
        bytes_up: up,
        bytes_down: down,
        bytes: up + down,
        uncharged_bytes: uncharged,
      },
      from: '2026-06-19T10:00:00.000Z',
      to: '2026-06-20T10:00:00.000Z',
      enabled: false,
    };
  });
});

const renderPage = (path: string) => renderAt(path, [{ path: '/proxy/usage-log/:id', element: <UsageLogPage /> }]);

describe('a proxy usage log', () => {
  it('lists connections with exact bytes, the refusal reason, the totals and a hint that the log is off', async () => {
    renderPage('/proxy/usage-log/7');
    await waitFor(() => expect(screen.getAllByTestId('bytes-up').map((c) => c.textContent)).toEqual(['812', '0']));
    expect(screen.getAllByTestId('bytes-down').map((c) => c.textContent)).toEqual(['5120', '0']);
    expect(screen.getByText('This proxy has expired')).toBeTruthy();
    expect(screen.getByTestId('usage-log-totals').getAttribute('data-bytes')).toBe('5932');
    expect(screen.getByText(/The usage log is off/)).toBeTruthy();
    expect(screen.getAllByText('example.com:443')).toHaveLength(2);
  });

  it('shows the bytes not charged of each connection, a tag on the rows with some, and their total', async () => {
    renderPage('/proxy/usage-log/7');
    await waitFor(() => expect(screen.getAllByTestId('bytes-up')).toHaveLength(2));
    expect(screen.queryByTestId('not-charged-tag')).toBeNull();
    fireEvent.change(screen.getByPlaceholderText('e.g. example.com'), { target: { value: 'lost' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() =>
      expect(screen.getAllByTestId('bytes-uncharged').map((c) => c.textContent)).toEqual(['600', '0']),
    );
    const tags = screen.getAllByTestId('not-charged-tag');
    expect(tags).toHaveLength(1);
    expect(tags[0].textContent).toBe('Not charged');
    expect(tags[0].closest('tr')?.textContent).toContain('lost.example.net:443');
    const totals = screen.getByTestId('usage-log-totals');
    expect(within(totals).getByText('Not charged')).toBeTruthy();
    expect(within(totals).getByText('600 B')).toBeTruthy();
  });

  it('filters by outcome', async () => {
    renderPage('/proxy/usage-log/7');
    await waitFor(() => expect(screen.getAllByTestId('bytes-up')).toHaveLength(2));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Outcome' }));
    fireEvent.click(await screen.findByTitle('Refused'));
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(screen.getAllByTestId('bytes-up')).toHaveLength(1));
    expect(api.requestsTo('tokenUsageLog').at(-1)?.query.get('outcome')).toBe('refused');
  });

  it("says so for a proxy that is not the user's", async () => {
    renderPage('/proxy/usage-log/8');
    expect(await screen.findByText('This proxy was not found')).toBeTruthy();
  });
});
