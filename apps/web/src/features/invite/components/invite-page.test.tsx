import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TInviteInfo, TRebateRecord } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { clearToken } from '../../../lib/session';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import type { TAppRoute } from '../../../app/route-types';
import { inviteRoutes } from '../routes';

// The share page leads to /register, another feature's screen: a stand-in here.
const withRegister: TAppRoute[] = [
  ...inviteRoutes,
  {
    path: '/register',
    access: 'public',
    titleKey: 'auth:register.title',
    load: async () => ({ default: () => <div>register page</div> }),
  },
];

const INFO: TInviteInfo = {
  invite_code: 'ANN12345',
  invite_link: 'http://127.0.0.1:8080/invite/ANN12345',
  inviter_name: 'zoe',
  invited_count: 2,
  total_rebate: 15.5,
  pending_rebate: 5,
  rebate_rate: 5,
};

const PAID: TRebateRecord = {
  id: 2,
  invitee: 'be***@example.com',
  charge_amount: 100,
  rebate_amount: 5,
  status: 'success',
  reason: null,
  processed_time: '2026-11-22T10:00:00.000Z',
  created_at: '2026-11-22T09:59:00.000Z',
};

// jsdom has no clipboard: a stand-in that keeps what was copied.
const copied: string[] = [];

// The screens' modules loaded once before the first test (a cold transform on a busy machine is not what is tested).
beforeAll(async () => {
  await Promise.all(inviteRoutes.map((route) => route.load()));
});

beforeEach(() => {
  copied.length = 0;
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: (text: string) => Promise.resolve(void copied.push(text)) },
    configurable: true,
  });
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ann@example.com' }));
  api.on('inviteInfo', () => INFO);
  api.on('inviteRebateConfig', () => ({
    version: 1,
    rate: 5,
    min_charge: 10,
    max_rebate: 100,
    effective_at: '2026-11-01T00:00:00.000Z',
  }));
  api.on('inviteRecords', () => ({
    records: [
      { invitee: 'be***@example.com', register_time: '2026-11-20T08:00:00.000Z', rebate_count: 1, total_rebate: 5 },
    ],
    total: 1,
    page: 1,
    page_size: 10,
  }));
  api.on('inviteRebateRecords', (req) => {
    const status = req.query.get('status');
    const records =
      status === 'pending'
        ? []
        : [PAID, { ...PAID, id: 1, status: 'failed' as const, reason: 'recharge_reversed' as const }];
    return { records, total: records.length, page: 1, page_size: 10 };
  });
});

describe('/invite', () => {
  it('shows the code and link with copy buttons, a QR code of the link, the totals, the inviter and the rules in words', async () => {
    renderAt('/invite', { featureRoutes: inviteRoutes });
    // The first render of the file also loads the console's layout.
    expect((await screen.findByTestId('invite-code', undefined, { timeout: 45_000 })).textContent).toBe('ANN12345');
    expect(screen.getByTestId('invite-link').textContent).toBe(INFO.invite_link);
    expect(screen.getByTestId('invite-qr').querySelector('canvas')).toBeTruthy();
    expect(screen.getByText('You were invited by zoe')).toBeTruthy();
    expect(screen.getByText('¥15.50')).toBeTruthy();
    expect(screen.getAllByText('¥5.00').length).toBeGreaterThan(0);
    expect((await screen.findByTestId('rebate-rules')).textContent).toContain(
      'at least ¥10.00, you get 5% of the top-up amount',
    );
    expect(screen.getByTestId('rebate-rules').textContent).toContain('at most ¥100.00 per top-up');
    // The side menu holds the screen.
    expect(screen.getAllByText('Invite & rebate').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByText('Copy link'));
    await waitFor(() => expect(shownMessages('success')).toContain('Invite link copied'));
    expect(copied).toEqual([INFO.invite_link]);
  });

  it('lists the invitees, and the rebates by status with an empty state', async () => {
    renderAt('/invite', { featureRoutes: inviteRoutes });
    const invitee = await screen.findByText('be***@example.com');
    expect(within(invitee.closest('tr')!).getByText('¥5.00')).toBeTruthy();
    fireEvent.click(screen.getByText('Rebate records'));
    const paidRow = (await screen.findByText('Paid')).closest('tr')!;
    expect(within(paidRow).getByText('¥100.00')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    fireEvent.mouseDown(screen.getByLabelText('Filter by status'));
    fireEvent.click(await screen.findByTitle('To be paid'));
    expect(await screen.findByText('No rebates in this status')).toBeTruthy();
    expect(api.requestsTo('inviteRebateRecords').at(-1)!.query.get('status')).toBe('pending');
  });

  it('says so in Chinese', async () => {
    setLanguage('zh');
    renderAt('/invite', { featureRoutes: inviteRoutes });
    expect(await screen.findByText('您的邀请人：zoe')).toBeTruthy();
    expect(screen.getByText('复制链接')).toBeTruthy();
  });
});

describe('/invite/:invite_code (public)', { timeout: 60_000 }, () => {
  const VALID = {
    invite_code: 'ANN12345',
    is_valid: true,
    inviter_name: 'ann',
    message: null,
    invite_required: false,
    claims: { residential_ips: '32M+', countries: 195, uptime: '99.9%' },
  };

  it('signed out: who invites, the claims, and a register button with the code', async () => {
    clearToken();
    api.on('inviteShare', () => VALID);
    const { router } = renderAt('/invite/ANN12345', { featureRoutes: withRegister });
    expect((await screen.findByTestId('share-title')).textContent).toBe('ann invites you to ProxyHub');
    expect(screen.getByText('32M+')).toBeTruthy();
    expect(screen.getByText('195')).toBeTruthy();
    expect(screen.getByText('99.9%')).toBeTruthy();
    fireEvent.click(screen.getByText('Register with this invitation'));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/register?invite=ANN12345'),
    );
    expect(api.requestsTo('inviteShare')[0]!.headers.authorization).toBeUndefined();
  });

  it('signed in: says you already have an account', async () => {
    api.on('inviteShare', () => VALID);
    renderAt('/invite/ANN12345', { featureRoutes: withRegister });
    expect(await screen.findByText('You already have an account and are signed in.')).toBeTruthy();
    expect(screen.queryByText('Register with this invitation')).toBeNull();
  });

  it('an invalid code: the message and a register-directly button, or that a valid code is needed', async () => {
    clearToken();
    const invalid = {
      ...VALID,
      is_valid: false,
      inviter_name: null,
      message: 'Invalid invitation code: it does not exist or has expired',
    };
    api.on('inviteShare', () => invalid);
    const { router, unmount } = renderAt('/invite/NOPE', { featureRoutes: withRegister });
    expect(await screen.findByText('Invalid invitation code: it does not exist or has expired')).toBeTruthy();
    fireEvent.click(screen.getByText('Register directly'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    unmount();
    api.on('inviteShare', () => ({ ...invalid, invite_required: true }));
    renderAt('/invite/GONE', { featureRoutes: withRegister });
    expect(await screen.findByText(/Registration needs a valid invitation code/)).toBeTruthy();
    expect(screen.queryByText('Register directly')).toBeNull();
  });
});
