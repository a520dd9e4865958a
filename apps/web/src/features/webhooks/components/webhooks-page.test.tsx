import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TWebhookDelivery, TWebhookEndpoint } from '@proxy/contract';
import { writeRecord } from '../../../lib/storage';
import { makeUser } from '../../../test/fixtures';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { webhooksRoutes } from '../routes';

let endpoints: TWebhookEndpoint[];
const delivery: TWebhookDelivery = {
  id: 7,
  event_id: 'evt_42',
  event_type: 'usage.threshold',
  status: 'succeeded',
  attempts: 1,
  response_code: 200,
  latency_ms: 12,
  response_excerpt: 'ok',
  last_attempt_at: '2026-05-01T00:00:00.000Z',
  next_attempt_at: null,
  created_at: '2026-05-01T00:00:00.000Z',
};

beforeEach(() => {
  endpoints = [];
  writeRecord('local', 'NOTICE_HIDDEN', true);
  api.on('userInfo', () => makeUser());
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('webhookList', () => ({ records: endpoints }));
  api.on('webhookCreate', (req) => {
    const body = req.json as { url: string; description: string; events: TWebhookEndpoint['events'] };
    const created: TWebhookEndpoint = {
      id: 1,
      url: body.url,
      description: body.description,
      events: body.events,
      is_enabled: true,
      disabled_reason: null,
      failing_since: null,
      created_at: '2026-05-01T00:00:00.000Z',
    };
    endpoints = [created];
    return { ...created, secret: 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef' };
  });
  api.on('webhookDeliveries', () => ({ records: [delivery], total: 1, page: 1, page_size: 20 }));
  api.on('webhookResend', (): TWebhookDelivery => ({ ...delivery, id: 8, status: 'pending', attempts: 0 }));
});

describe('webhooks page', { timeout: 120_000 }, () => {
  it('adds an endpoint with chosen events, shows its secret once, and resends from the delivery log', async () => {
    renderAt('/developer/webhooks', { featureRoutes: webhooksRoutes });
    fireEvent.click((await screen.findByText('Add endpoint')).closest('button')!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'http://insecure.example' } });
    fireEvent.click(within(dialog).getByLabelText('Traffic threshold reached'));
    fireEvent.click(within(dialog).getByText('Save').closest('button')!);
    expect(await within(dialog).findByText('Enter a valid https:// URL (no user name, password or #)')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'https://hooks.example.com/in' } });
    fireEvent.click(within(dialog).getByText('Save').closest('button')!);
    await waitFor(() => expect(api.requestsTo('webhookCreate')).toHaveLength(1));
    expect(api.requestsTo('webhookCreate')[0].json).toEqual({
      url: 'https://hooks.example.com/in',
      description: '',
      events: ['usage.threshold'],
    });
    const secret = (await screen.findByTestId('webhook-secret')) as HTMLInputElement;
    expect(secret.value).toBe('whsec_0123456789abcdef0123456789abcdef0123456789abcdef');
    fireEvent.click(screen.getByText('I have saved it').closest('button')!);
    expect(await screen.findByText('https://hooks.example.com/in')).toBeTruthy();

    fireEvent.click(screen.getByText('Deliveries').closest('button')!);
    expect(await screen.findByText('evt_42')).toBeTruthy();
    expect(screen.getByText('Delivered')).toBeTruthy();
    fireEvent.click(screen.getByText('Resend').closest('button')!);
    await waitFor(() => expect(api.requestsTo('webhookResend')).toHaveLength(1));
  });

  it('tells a failed switch, test or resend once, through the request layer', async () => {
    endpoints = [
      {
        id: 1,
        url: 'https://hooks.example.com/in',
        description: '',
        events: ['usage.threshold'],
        is_enabled: true,
        disabled_reason: null,
        failing_since: null,
        created_at: '2026-05-01T00:00:00.000Z',
      },
    ];
    api.on('webhookUpdate', () => fail(503, 503, 'Switch refused'));
    api.on('webhookTest', () => fail(503, 503, 'Test refused'));
    api.on('webhookResend', () => fail(503, 503, 'Resend refused'));
    renderAt('/developer/webhooks', { featureRoutes: webhooksRoutes });

    fireEvent.click(await screen.findByRole('switch', { name: 'On: https://hooks.example.com/in' }));
    expect(await screen.findByText('Switch refused')).toBeTruthy();
    fireEvent.click(screen.getByText('Send test').closest('button')!);
    expect(await screen.findByText('Test refused')).toBeTruthy();
    fireEvent.click(screen.getByText('Deliveries').closest('button')!);
    fireEvent.click((await screen.findByText('Resend')).closest('button')!);
    expect(await screen.findByText('Resend refused')).toBeTruthy();
    expect(api.requestsTo('webhookUpdate')[0].json).toEqual({ id: 1, is_enabled: false });
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
