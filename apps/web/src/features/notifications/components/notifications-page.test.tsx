import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TNotification } from '@proxy/contract';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import NotificationsPage from './notifications-page';

let store: TNotification[] = [];

// Two unread notifications on a server that lists and marks them.
beforeEach(() => {
  store = [
    {
      notification_id: 2,
      kind: 'system',
      title: 'Trial credit received',
      content: '15 yuan added',
      is_read: false,
      created_at: '2026-01-02T03:04:05.000Z',
    },
    {
      notification_id: 1,
      kind: 'system',
      title: 'Welcome',
      content: 'Your account is ready',
      is_read: false,
      created_at: '2026-01-01T03:04:05.000Z',
    },
  ];
  api.on('userNotificationList', (req) => {
    const onlyUnread = req.query.get('unread') === 'true';
    const records = store.filter((n) => !onlyUnread || !n.is_read);
    return { records, total: records.length, page: 1, page_size: 10, unread: store.filter((n) => !n.is_read).length };
  });
  api.on('userNotificationMarkRead', (req) => {
    const id = req.form.get('notification_id');
    for (const n of store) if (id === 'all' || String(n.notification_id) === id) n.is_read = true;
    return null;
  });
});

function itemOf(title: string): HTMLElement {
  return screen.getByText(title).closest('.ant-list-item') as HTMLElement;
}

describe('notifications page', () => {
  it('lists unread notifications and marks one as read', async () => {
    renderAt('/notifications', [{ path: '/notifications', element: <NotificationsPage /> }]);
    await screen.findByText('Welcome');
    expect(screen.getAllByText('Unread').length).toBeGreaterThanOrEqual(2);
    fireEvent.click(within(itemOf('Welcome')).getByRole('button', { name: /Mark as read/ }));
    await waitFor(() => expect(within(itemOf('Welcome')).getByText('Read')).toBeTruthy());
    expect(within(itemOf('Trial credit received')).getByRole('button', { name: /Mark as read/ })).toBeTruthy();
    expect(api.requestsTo('userNotificationMarkRead')[0].form.get('notification_id')).toBe('1');
  });

  it('marks all as read and filters unread ones', async () => {
    renderAt('/notifications', [{ path: '/notifications', element: <NotificationsPage /> }]);
    await screen.findByText('Welcome');
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.queryAllByRole('button', { name: /Mark as read/ })).toHaveLength(0));
    expect(api.requestsTo('userNotificationMarkRead')[0].form.get('notification_id')).toBe('all');
    fireEvent.click(screen.getByText('Unread'));
    expect(await screen.findByText('No unread notifications')).toBeTruthy();
  });
});
