import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminSiteRoutes } from '../routes';

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
});

describe('notice (operator area)', () => {
  it('publishes a notice in both languages after a confirmation; nothing is sent while a language is missing', async () => {
    api.on('adminNoticeCurrent', () => null);
    api.on(
      'adminNoticePublish',
      (req) => ({ notice_id: 2, ...(req.json as object), published_at: '2026-11-23T04:00:00.000Z' }) as never,
    );
    renderAt('/admin/notice', { featureRoutes: adminSiteRoutes });
    expect((await screen.findByTestId('notice-current')).textContent).toContain('No notice published');
    const notice = within(screen.getByTestId('notice-form'));
    fireEvent.change(notice.getByLabelText('Title (Chinese)'), { target: { value: '维护通知' } });
    fireEvent.change(notice.getByLabelText('Text (Chinese)'), { target: { value: '今晚维护。' } });
    fireEvent.click(screen.getByTestId('notice-publish'));
    await waitFor(() => expect(screen.getAllByText('Required').length).toBeGreaterThan(0));
    expect(api.requestsTo('adminNoticePublish')).toHaveLength(0);

    fireEvent.change(notice.getByLabelText('Title (English)'), { target: { value: 'Maintenance' } });
    fireEvent.change(notice.getByLabelText('Text (English)'), { target: { value: 'Maintenance tonight.' } });
    fireEvent.click(screen.getByTestId('notice-publish'));
    const confirm = await findModalWith('Publish this notice?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(shownMessages('success')).toContain('The notice is published'));
    expect(api.requestsTo('adminNoticePublish')[0].json).toEqual({
      title_zh: '维护通知',
      title_en: 'Maintenance',
      content_zh: '今晚维护。',
      content_en: 'Maintenance tonight.',
    });
    await waitFor(() => expect(screen.getByTestId('notice-current').textContent).toContain('In force since'));
  });

  it('sends a notification to every active account when no customer id is given', async () => {
    api.on('adminNoticeCurrent', () => null);
    api.on('adminNotificationSend', () => ({ sent: 3 }));
    renderAt('/admin/notice', { featureRoutes: adminSiteRoutes });
    const card = within(await screen.findByTestId('send-notification-form'));
    fireEvent.change(card.getByLabelText('Title (Chinese)'), { target: { value: '维护' } });
    fireEvent.change(card.getByLabelText('Text (Chinese)'), { target: { value: '今晚维护。' } });
    fireEvent.change(card.getByLabelText('Title (English)'), { target: { value: 'Maintenance' } });
    fireEvent.change(card.getByLabelText('Text (English)'), { target: { value: 'Tonight.' } });
    fireEvent.click(screen.getByTestId('send-notification'));
    const confirm = await findModalWith('Send this notification to every active account?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Sent to 3 account(s)'));
    expect(api.requestsTo('adminNotificationSend')[0].json).toEqual({
      title_zh: '维护',
      content_zh: '今晚维护。',
      title_en: 'Maintenance',
      content_en: 'Tonight.',
    });
  });
});
