import { beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import type { TAuditEntry } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminAuditRoutes } from '../routes';
import { toAuditFilters } from './audit-filters';

const DISABLED: TAuditEntry = {
  id: 2,
  operator_id: 1,
  operator_email: 'ops@example.com',
  route: 'adminUserSetStatus',
  method: 'PUT',
  path: '/admin/users/5/status',
  target_id: '5',
  input: { id: '5', status: 'disabled' },
  result: 'ok',
  error_code: null,
  ip: '203.0.113.4',
  created_at: '2026-06-20T10:00:00.000Z',
};

const MISSING: TAuditEntry = {
  ...DISABLED,
  id: 1,
  path: '/admin/users/404/status',
  target_id: '404',
  input: { id: '404', status: 'disabled' },
  result: 'error',
  error_code: 'USER_NOT_FOUND',
};

let isAdmin = true;

beforeEach(() => {
  isAdmin = true;
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: isAdmin }));
});

/** The audit screen inside the console's own router (sign-in check, operator gate, operator layout). */
function renderAudit(path = '/admin/audit') {
  return renderAt(path, { featureRoutes: adminAuditRoutes });
}

/** The list request's query, as the server would read it. */
function lastListQuery(): Record<string, string> {
  const requests = api.requestsTo('adminAuditList');
  return Object.fromEntries(requests.at(-1)!.query);
}

describe('audit list (operator area)', () => {
  it('a customer at /admin/audit sees the 403 page and the audit list is never asked for', async () => {
    isAdmin = false;
    api.on('adminAuditList', () => ({ records: [DISABLED], total: 1, page: 1, page_size: 20 }));
    renderAudit();
    await screen.findByText('No permission');
    // The user info has answered (the gate decided on it), and still no operator call.
    expect(api.requestsTo('userInfo').length).toBeGreaterThan(0);
    expect(api.requestsTo('adminAuditList')).toHaveLength(0);
    expect(screen.queryByText('Audit log')).toBeNull();
    expect(screen.queryByText('ops@example.com')).toBeNull();
  });

  it('an operator sees the entries: time, operator, action, target, result with error code, compact input', async () => {
    api.on('adminAuditList', () => ({ records: [DISABLED, MISSING], total: 2, page: 1, page_size: 20 }));
    renderAudit('/admin');
    const okRow = (await screen.findByText('/admin/users/5/status', { exact: false })).closest('tr')!;
    expect(within(okRow).getByText(dayjs(DISABLED.created_at).format('YYYY-MM-DD HH:mm:ss'))).toBeTruthy();
    expect(within(okRow).getByText('ops@example.com')).toBeTruthy();
    expect(within(okRow).getByText('ID 1')).toBeTruthy();
    expect(within(okRow).getByText('adminUserSetStatus')).toBeTruthy();
    expect(within(okRow).getByText('5')).toBeTruthy();
    expect(within(okRow).getByText('Succeeded')).toBeTruthy();
    expect(within(okRow).getByText('{"id":"5","status":"disabled"}')).toBeTruthy();

    const errorRow = screen.getByText('/admin/users/404/status', { exact: false }).closest('tr')!;
    expect(within(errorRow).getByText('Failed')).toBeTruthy();
    expect(within(errorRow).getByText('USER_NOT_FOUND')).toBeTruthy();
    expect(screen.getByText('Total 2')).toBeTruthy();
    expect(lastListQuery()).toEqual({ page: '1', page_size: '20' });

    // The operator menu holds the screen; the header names the operator.
    expect(within(screen.getByTestId('admin-sidebar')).getByText('Audit log')).toBeTruthy();
    expect(screen.getByTestId('admin-operator').textContent).toBe('ops@example.com');
  });

  it('expands an entry to its full input and the address it came from', async () => {
    api.on('adminAuditList', () => ({ records: [DISABLED], total: 1, page: 1, page_size: 20 }));
    renderAudit();
    const row = (await screen.findByText('adminUserSetStatus')).closest('tr')!;
    expect(screen.queryByTestId('audit-details-2')).toBeNull();
    fireEvent.click(within(row).getByLabelText('Expand row'));
    const details = await screen.findByTestId('audit-details-2');
    expect(details.textContent).toContain('203.0.113.4');
    expect(details.querySelector('pre')!.textContent).toBe(JSON.stringify(DISABLED.input, null, 2));
  });

  it('pages with page and page_size', async () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ ...DISABLED, id: 100 - i, target_id: String(100 - i) }));
    api.on('adminAuditList', (request) => {
      const page = Number(request.query.get('page'));
      const pageSize = Number(request.query.get('page_size'));
      return {
        records: page === 1 ? records : [{ ...DISABLED, id: 7, target_id: 'second-page' }],
        total: 45,
        page,
        page_size: pageSize,
      };
    });
    renderAudit();
    await screen.findByText('Total 45');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('second-page');
    expect(lastListQuery()).toEqual({ page: '2', page_size: '20' });
  });

  it('sends the filters (operator, action, target) and starts again at page 1', async () => {
    api.on('adminAuditList', (request) => ({
      records: request.query.get('target_id') === '5' ? [DISABLED] : [DISABLED, MISSING],
      total: 45,
      page: Number(request.query.get('page')),
      page_size: 20,
    }));
    renderAudit();
    await screen.findByText('Total 45');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastListQuery().page).toBe('2'));

    fireEvent.change(screen.getByLabelText('Operator'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Target ID'), { target: { value: ' 5 ' } });
    // The list of audited actions is long (and virtual): typed into, as an operator would, it shows the one wanted.
    fireEvent.mouseDown(screen.getByLabelText('Action'));
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'adminUserSetStatus' } });
    fireEvent.click(await screen.findByText('adminUserSetStatus', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(lastListQuery().route).toBe('adminUserSetStatus'));
    fireEvent.click(screen.getByText('Search'));
    await waitFor(() =>
      expect(lastListQuery()).toEqual({
        page: '1',
        page_size: '20',
        operator_id: '1',
        route: 'adminUserSetStatus',
        target_id: '5',
      }),
    );
    await waitFor(() => expect(screen.queryByText('USER_NOT_FOUND')).toBeNull());

    // Reset: the unfiltered first page again (from the cache or the server).
    fireEvent.click(screen.getByText('Reset'));
    await screen.findByText('USER_NOT_FOUND');
    expect((screen.getByLabelText('Target ID') as HTMLInputElement).value).toBe('');
  });

  it('a day range becomes [first day 00:00, the day after the last 00:00)', () => {
    const filters = toAuditFilters({ time: [dayjs('2026-06-01T15:30:00'), dayjs('2026-06-03T08:00:00')] });
    expect(filters.from).toBe(dayjs('2026-06-01T00:00:00').toISOString());
    expect(filters.to).toBe(dayjs('2026-06-04T00:00:00').toISOString());
    expect(toAuditFilters({ operator: ' ', route: undefined, target_id: '  ' })).toEqual({
      operator_id: undefined,
      operator_email: undefined,
      route: undefined,
      target_id: undefined,
      from: undefined,
      to: undefined,
    });
  });

  it('takes the operator as an id or part of an e-mail', async () => {
    api.on('adminAuditList', () => ({ records: [DISABLED, MISSING], total: 2, page: 1, page_size: 20 }));
    expect(toAuditFilters({ operator: ' 12 ' })).toMatchObject({ operator_id: 12, operator_email: undefined });
    expect(toAuditFilters({ operator: 'Ops@Example' })).toMatchObject({
      operator_id: undefined,
      operator_email: 'Ops@Example',
    });
    expect(toAuditFilters({ operator: '012' })).toMatchObject({ operator_id: undefined, operator_email: '012' });
    renderAudit();
    await screen.findByText('USER_NOT_FOUND');
    fireEvent.change(screen.getByLabelText('Operator'), { target: { value: 'ops@example' } });
    fireEvent.click(screen.getByText('Search'));
    await waitFor(() => expect(lastListQuery()).toEqual({ page: '1', page_size: '20', operator_email: 'ops@example' }));
  });

  it('says so when nothing is recorded, or nothing matches', async () => {
    api.on('adminAuditList', () => ({ records: [], total: 0, page: 1, page_size: 20 }));
    renderAudit();
    await screen.findByText('No operator actions recorded yet');
    fireEvent.change(screen.getByLabelText('Target ID'), { target: { value: '9' } });
    fireEvent.click(screen.getByText('Search'));
    await screen.findByText('No entries match the filters');
  });

  it('toasts a failed load and offers a retry', async () => {
    let isDown = true;
    api.on('adminAuditList', () =>
      isDown ? fail(500, 500, 'Server error') : { records: [DISABLED], total: 1, page: 1, page_size: 20 },
    );
    renderAudit();
    await screen.findByText('The audit log could not be loaded');
    expect(shownMessages('error')).toContain('Failed to load the audit log');
    isDown = false;
    fireEvent.click(screen.getByText('Retry'));
    await screen.findByText('adminUserSetStatus');
  });

  it('speaks Chinese', async () => {
    api.on('adminAuditList', () => ({ records: [MISSING], total: 1, page: 1, page_size: 20 }));
    cleanup();
    act(() => setLanguage('zh'));
    renderAudit();
    const row = (await screen.findByText('adminUserSetStatus')).closest('tr')!;
    expect(within(row).getByText('失败')).toBeTruthy();
    expect(screen.getAllByText('操作审计').length).toBeGreaterThan(0);
    expect(screen.getByText('返回控制台')).toBeTruthy();
    expect(screen.getByText('共 1 条')).toBeTruthy();
  });
});
