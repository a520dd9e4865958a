import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { WORK_ORDER_ATTACHMENT_MAX_BYTES, type TWorkOrder, type TWorkOrderDetail } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail, raw } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { workOrderRoutes } from '../routes';
import NewWorkOrderPage from './new-work-order-page';
import WorkOrderPage from './work-order-page';

const OPEN: TWorkOrder = {
  id: 12,
  category: 'proxy',
  subject: 'Proxy does not connect',
  status: 'open',
  token_id: null,
  supply_request_id: null,
  created_at: '2026-06-20T10:00:00.000Z',
  updated_at: '2026-06-20T10:00:00.000Z',
};
const ANSWERED: TWorkOrder = { ...OPEN, id: 11, subject: 'Invoice needed', category: 'billing', status: 'answered' };
const CLOSED: TWorkOrder = { ...OPEN, id: 10, subject: 'Old question', category: 'other', status: 'closed' };

const DETAIL: TWorkOrderDetail = {
  ...ANSWERED,
  messages: [
    {
      message_id: 1,
      author: 'customer',
      content: 'Please send an invoice for my last top-up.',
      attachments: [{ attachment_id: 5, filename: 'receipt.png', content_type: 'image/png', size: 70 }],
      created_at: '2026-06-20T10:00:00.000Z',
    },
    {
      message_id: 2,
      author: 'operator',
      content: 'Sure, which company name?',
      attachments: [],
      created_at: '2026-06-20T11:00:00.000Z',
    },
  ],
};

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1 }));
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('workOrderList', (req) => {
    const status = req.query.get('status');
    const records = [OPEN, ANSWERED, CLOSED].filter((o) => !status || o.status === status);
    return { records, total: records.length, page: 1, page_size: 10 };
  });
  api.on('workOrderDetail', (req) => (req.params.id === '11' ? DETAIL : fail(404, 7101, 'Work order not found')));
  api.on('workOrderAttachmentFile', () => raw('png-bytes', { headers: { 'content-type': 'image/png' } }));
});

/** The list inside the console's own router (layout and side menu). */
function renderWorkOrders(path = '/work-orders') {
  return renderAt(path, { featureRoutes: workOrderRoutes });
}

/** The form and the conversation on their own (lighter than the whole console). */
function renderScreens(path: string) {
  return renderAt(path, [
    { path: '/work-orders/new', element: <NewWorkOrderPage /> },
    { path: '/work-orders/:id', element: <WorkOrderPage /> },
  ]);
}

function pickFiles(input: HTMLInputElement, files: File[]) {
  fireEvent.change(input, { target: { files } });
}

describe('work orders (customer)', { timeout: 60_000 }, () => {
  it('lists the work orders with status tags, filters by status, and is in the side menu', async () => {
    renderWorkOrders();
    const openRow = (await screen.findByText('Proxy does not connect')).closest('tr')!;
    expect(within(openRow).getByText('Open')).toBeTruthy();
    expect(within(openRow).getByText('Proxy')).toBeTruthy();
    expect(within(screen.getByText('Invoice needed').closest('tr')!).getByText('Answered')).toBeTruthy();
    const closedRow = screen.getByText('Old question').closest('tr')!;
    expect(within(closedRow).getByText('Closed')).toBeTruthy();
    // Ended orders cannot be cancelled.
    expect(within(closedRow).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(within(openRow).getByRole('button', { name: 'Cancel order' })).toBeTruthy();
    expect(screen.getAllByText('Work orders').length).toBeGreaterThanOrEqual(2);

    fireEvent.click(screen.getByText('Answered', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(screen.queryByText('Proxy does not connect')).toBeNull());
    expect(api.requestsTo('workOrderList').at(-1)!.query.get('status')).toBe('answered');
  });

  it('cancels an open work order after a confirmation', async () => {
    api.on('workOrderCancel', (req) => ({ ...OPEN, id: Number(req.params.id), status: 'cancelled' as const }));
    renderWorkOrders();
    const openRow = (await screen.findByText('Proxy does not connect')).closest('tr')!;
    fireEvent.click(within(openRow).getByRole('button', { name: 'Cancel order' }));
    const confirm = await screen.findByText('Cancel this work order? It cannot be reopened.');
    fireEvent.click(
      within(confirm.closest('.ant-popover')! as HTMLElement).getByRole('button', { name: 'Cancel order' }),
    );
    await waitFor(() => expect(shownMessages('success')).toContain('Work order cancelled'));
    expect(api.requestsTo('workOrderCancel')[0].params.id).toBe('12');
  });

  it('checks the new-order form in both languages before sending anything', async () => {
    renderScreens('/work-orders/new');
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please choose a category: billing, proxy, supply, account or other')).toBeTruthy();
    expect(screen.getByText('Please enter a subject')).toBeTruthy();
    expect(screen.getByText('Please describe your question')).toBeTruthy();

    act(() => setLanguage('zh'));
    // antd spaces out a two-character Chinese button label.
    fireEvent.click(await screen.findByRole('button', { name: /^提\s?交$/ }));
    expect(await screen.findByText('请输入工单标题')).toBeTruthy();
    expect(screen.getByText('请描述您的问题')).toBeTruthy();
    expect(api.requestsTo('workOrderCreate')).toHaveLength(0);
  });

  it('refuses a GIF before any upload and uploads a PNG as multipart', async () => {
    api.on('workOrderAttachmentUpload', () => ({
      attachment_id: 31,
      filename: 'error.png',
      content_type: 'image/png' as const,
      size: 4,
    }));
    const { container } = renderScreens('/work-orders/new');
    await screen.findByRole('button', { name: 'Submit' });
    // (The picker replaces its file input after each pick.)
    const input = () => container.querySelector('input[type="file"]') as HTMLInputElement;
    pickFiles(input(), [new File(['GIF89a'], 'anim.gif', { type: 'image/gif' })]);
    await waitFor(() =>
      expect(shownMessages('error')).toContain('anim.gif: Only PNG, JPEG or WebP images are accepted'),
    );
    const big = new File([new Uint8Array(WORK_ORDER_ATTACHMENT_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' });
    pickFiles(input(), [big]);
    await waitFor(() => expect(shownMessages('error')).toContain('huge.png: An image must be at most 5 MB'));
    expect(api.requestsTo('workOrderAttachmentUpload')).toHaveLength(0);
    pickFiles(input(), [new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'error.png', { type: 'image/png' })]);
    await waitFor(() => expect(api.requestsTo('workOrderAttachmentUpload')).toHaveLength(1));
    expect(String(api.requestsTo('workOrderAttachmentUpload')[0].headers['content-type'])).toContain(
      'multipart/form-data',
    );
    expect(await screen.findByText('error.png')).toBeTruthy();
  });

  it('opens a work order with an uploaded image and shows its conversation', async () => {
    api.on('workOrderAttachmentUpload', () => ({
      attachment_id: 31,
      filename: 'error.png',
      content_type: 'image/png' as const,
      size: 4,
    }));
    api.on('workOrderCreate', (req) => {
      const body = req.json as { subject: string };
      return { ...DETAIL, id: 11, subject: body.subject, status: 'open' as const };
    });
    const { container } = renderScreens('/work-orders/new');
    await screen.findByRole('button', { name: 'Submit' });

    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByText('Billing', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(screen.getByPlaceholderText('A short summary of the problem'), {
      target: { value: 'Invoice needed' },
    });
    fireEvent.change(screen.getByPlaceholderText('What happened, what you expected, and any error message'), {
      target: { value: 'Please send an invoice.' },
    });
    pickFiles(container.querySelector('input[type="file"]') as HTMLInputElement, [
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'error.png', { type: 'image/png' }),
    ]);
    await waitFor(() => expect(api.requestsTo('workOrderAttachmentUpload')).toHaveLength(1));

    const submit = screen.getByRole('button', { name: 'Submit' });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(submit);
    await waitFor(() => expect(api.requestsTo('workOrderCreate')).toHaveLength(1));
    expect(api.requestsTo('workOrderCreate')[0].json).toEqual({
      category: 'billing',
      subject: 'Invoice needed',
      content: 'Please send an invoice.',
      attachment_ids: [31],
    });

    // The conversation of the new order.
    expect(await screen.findByText('Sure, which company name?')).toBeTruthy();
    expect(shownMessages('success')).toContain('Work order #11 submitted');
  });

  it('shows the conversation with images and sends a reply', async () => {
    api.on('workOrderReply', (req) => ({
      ...DETAIL,
      status: 'open' as const,
      messages: [
        ...DETAIL.messages,
        {
          message_id: 3,
          author: 'customer' as const,
          content: (req.json as { content: string }).content,
          attachments: [],
          created_at: '2026-06-20T12:00:00.000Z',
        },
      ],
    }));
    renderScreens('/work-orders/11');
    expect(await screen.findByText('Please send an invoice for my last top-up.')).toBeTruthy();
    expect(within(screen.getByTestId('work-order-message-operator')).getByText('Support')).toBeTruthy();
    expect(within(screen.getByTestId('work-order-message-customer')).getByText('You')).toBeTruthy();
    await waitFor(() => expect(screen.getByAltText('receipt.png')).toBeTruthy());
    expect(api.requestsTo('workOrderAttachmentFile')[0].params.id).toBe('5');

    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Please describe your question')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Add details or answer the support team'), {
      target: { value: 'ACME Ltd.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(api.requestsTo('workOrderReply')).toHaveLength(1));
    expect(api.requestsTo('workOrderReply')[0].json).toEqual({ id: 11, content: 'ACME Ltd.', attachment_ids: [] });
    await waitFor(() => expect(shownMessages('success')).toContain('Reply sent'));
  });

  it("says so for an order that is not the customer's", async () => {
    renderScreens('/work-orders/99');
    expect(await screen.findByText('This work order does not exist')).toBeTruthy();
  });
});
