import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAdminRebateRecord, TRebateConfigVersion } from '@proxy/contract';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminInviteRoutes } from '../routes';

const V1: TRebateConfigVersion = {
  version: 1,
  rate: 5,
  min_charge: 10,
  max_rebate: 100,
  effective_at: '2026-11-01T00:00:00.000Z',
  created_by: null,
  is_current: true,
};

const REVERSED: TAdminRebateRecord = {
  id: 3,
  invitee: 'ben@example.com',
  charge_amount: 1000,
  rebate_amount: 50,
  status: 'failed',
  reason: 'recharge_reversed',
  processed_time: '2026-11-22T10:00:00.000Z',
  created_at: '2026-11-22T09:00:00.000Z',
  inviter_id: 1,
  inviter_email: 'ann@example.com',
  invitee_id: 2,
  invitee_email: 'ben@example.com',
  order_id: 'R20261122A',
  rule_version: 1,
  reversed_amount: 3,
  shortfall_amount: 47,
};

let versions: TRebateConfigVersion[];

// The screens' modules loaded once before the first test (a cold transform on a busy machine is not what is tested).
beforeAll(async () => {
  await Promise.all(adminInviteRoutes.map((route) => route.load()));
});

beforeEach(() => {
  versions = [V1];
  api.on('userInfo', () => makeUser({ user_id: 9, email: 'ops@example.com', is_admin: true }));
  api.on('inviteAdminRebateConfigList', () => ({ records: versions, total: versions.length, page: 1, page_size: 20 }));
});

describe('operator area: rebate rules and rebates', { timeout: 60_000 }, () => {
  it('a customer gets the 403 page and no operator call', async () => {
    api.on('userInfo', () => makeUser({ user_id: 2, is_admin: false }));
    renderAt('/admin/invite/rules', { featureRoutes: adminInviteRoutes });
    await screen.findByText('No permission', undefined, { timeout: 45_000 }); // the first render of the file loads the console's layout
    expect(api.requestsTo('inviteAdminRebateConfigList')).toHaveLength(0);
  });

  it('shows the rules in force and saves a new version, which the history then shows in force', async () => {
    api.on('inviteAdminRebateConfigUpdate', (req) => {
      const body = req.json as { rate: number; min_charge: number; max_rebate: number };
      const saved = {
        ...body,
        version: 2,
        effective_at: '2026-11-22T00:00:00.000Z',
        created_by: 'ops@example.com',
        is_current: true,
      };
      versions = [saved, { ...V1, is_current: false }];
      return saved;
    });
    renderAt('/admin/invite/rules', { featureRoutes: adminInviteRoutes });
    expect((await screen.findByTestId('current-rules')).textContent).toBe(
      'In force: version 1, 5% of each top-up of at least ¥10.00, at most ¥100.00 per top-up.',
    );
    const rate = screen.getByLabelText('Rate');
    fireEvent.change(rate, { target: { value: '7.5' } });
    fireEvent.click(screen.getByText('Save as new version'));
    // Rules that move money take effect only once confirmed, with what they will do.
    const confirm = await findModalWith(
      'From now on, each top-up of an invitee of at least ¥10.00 earns the inviter 7.5%, at most ¥100.00. Put version 2 in force?',
    );
    expect(api.requestsTo('inviteAdminRebateConfigUpdate')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Put in force' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Version 2 is in force'));
    expect(api.requestsTo('inviteAdminRebateConfigUpdate')[0]!.json).toEqual({
      rate: 7.5,
      min_charge: 10,
      max_rebate: 100,
    });
    expect(await screen.findByText('2 (in force)')).toBeTruthy();
    expect(screen.getByText('Defaults of the installation')).toBeTruthy();
  });

  it('refuses a rate or an amount out of range with the bounds, keeping what was typed, and saves nothing', async () => {
    renderAt('/admin/invite/rules', { featureRoutes: adminInviteRoutes });
    await screen.findByTestId('current-rules');
    const rate = screen.getByLabelText('Rate');
    fireEvent.change(rate, { target: { value: '60' } });
    fireEvent.blur(rate);
    fireEvent.change(screen.getByLabelText('Minimum top-up'), { target: { value: '-3' } });
    fireEvent.click(screen.getByText('Save as new version'));
    expect(await screen.findByText('The rate must be from 0 to 50%')).toBeTruthy();
    expect(await screen.findByText('Enter an amount from ¥0.00 to ¥1000000.00')).toBeTruthy();
    // Not clamped to the nearest bound behind the operator's back.
    expect((rate as HTMLInputElement).value).toBe('60.00');
    expect(api.requestsTo('inviteAdminRebateConfigUpdate')).toHaveLength(0);
  });

  it('lists every rebate with both accounts, the order, the rules version and what a reversal took back', async () => {
    api.on('inviteAdminRebateList', () => ({ records: [REVERSED], total: 1, page: 1, page_size: 20 }));
    renderAt('/admin/invite/rebates', { featureRoutes: adminInviteRoutes });
    const row = (await screen.findByText('R20261122A')).closest('tr')!;
    expect(within(row).getByText('ann@example.com')).toBeTruthy();
    expect(within(row).getByText('ben@example.com')).toBeTruthy();
    expect(within(row).getByText('The top-up was reversed')).toBeTruthy();
    expect(within(row).getByText('Taken back ¥3.00')).toBeTruthy();
    expect(within(row).getByText('Not recovered ¥47.00')).toBeTruthy();
  });
});
