import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { api, TEST_SESSION_TOKEN, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { IpAddForm } from './ip-add-form';

function renderForm(existingCount = 0) {
  return renderAt('/security', <IpAddForm list="whitelist" existingCount={existingCount} />);
}

function typeIp(value: string) {
  fireEvent.change(screen.getByRole('textbox', { name: /IP/ }), { target: { value } });
}

describe('IP list add form', { timeout: 60_000 }, () => {
  it('names the wrong entry as the user types, and clears it when fixed', async () => {
    renderForm();
    typeIp('1.2.3.4; 010.0.0.1');
    expect(await screen.findByText('Invalid IP Format: 010.0.0.1')).toBeTruthy();
    typeIp('1.2.3.4; 10.0.0.0/33');
    expect(
      await screen.findByText('Invalid IP Format: 10.0.0.0/33 (the prefix length is 0-32 for IPv4 and 0-128 for IPv6)'),
    ).toBeTruthy();
    typeIp('10.0.0.5-10.0.0.1');
    expect(
      await screen.findByText('Invalid IP Format: 10.0.0.5-10.0.0.1 (a range must not start after its end)'),
    ).toBeTruthy();
    typeIp('1.2.3.4; ::ffff:1.2.3.4');
    expect(await screen.findByText('1.2.3.4 is entered more than once')).toBeTruthy();
    typeIp('1.2.3.4; 10.0.0.7/24;');
    await waitFor(() => expect(screen.queryByText(/Invalid IP Format|more than once/)).toBeNull());
    // The normalised entries that will be added.
    expect(screen.getByText('10.0.0.0/24')).toBeTruthy();
    expect(screen.getByText('To be added (2):')).toBeTruthy();
  });

  it('says it in Chinese too', async () => {
    act(() => setLanguage('zh'));
    renderForm();
    fireEvent.change(screen.getByRole('textbox', { name: /IP 地址/ }), { target: { value: '1.2.3.4 5.6.7.8' } });
    expect(await screen.findByText('IP 格式无效：1.2.3.4 5.6.7.8')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /IP 地址/ }), { target: { value: ' ; ' } });
    expect(await screen.findByText('请输入 IP 地址、CIDR 网段或 IP 范围')).toBeTruthy();
  });

  it('counts against the 500-entry cap of the list', async () => {
    renderForm(499);
    typeIp('1.1.1.1; 1.1.1.2');
    expect(await screen.findByText('The whitelist holds at most 500 entries; it has 499')).toBeTruthy();
  });

  it('sends nothing while the field is wrong', async () => {
    renderForm();
    typeIp('nope');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Invalid IP Format: nope')).toBeTruthy();
    expect(api.requestsTo('userWhitelistAdd')).toHaveLength(0);
  });

  it('posts the entries and the remark, and shows a server refusal under the field', async () => {
    api.on('userWhitelistAdd', (req) =>
      req.form.get('ip') === '9.9.9.9'
        ? fail(409, 4102, 'IP already exists in whitelist: 9.9.9.9', { error: 'IP_DUPLICATE' })
        : {
            records: [
              {
                id: 1,
                ip: '8.8.8.8',
                kind: 'single' as const,
                remark: req.form.get('remark') ?? '',
                created_at: '2026-01-01T00:00:00.000Z',
              },
            ],
          },
    );
    renderForm();
    typeIp('8.8.8.8');
    fireEvent.change(screen.getByRole('textbox', { name: 'Remark' }), { target: { value: 'office' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Entries added to the whitelist: 1'));
    const [posted] = api.requestsTo('userWhitelistAdd');
    expect(Object.fromEntries(posted.form)).toEqual({ ip: '8.8.8.8', remark: 'office' });
    expect(posted.headers.authorization).toBe(`Bearer ${TEST_SESSION_TOKEN}`);

    typeIp('9.9.9.9');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText('IP already exists in whitelist: 9.9.9.9', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    // Told once: under the field, not as a toast too.
    expect(shownMessages('error')).toEqual([]);
    expect(screen.getAllByText('IP already exists in whitelist: 9.9.9.9')).toHaveLength(1);
  });

  it('keeps a refusal that is not about the addresses as one toast', async () => {
    api.on('userWhitelistAdd', () => fail(500, 500, 'Server error, please try again later', { error: 'INTERNAL' }));
    renderForm();
    typeIp('8.8.8.8');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(shownMessages('error')).toEqual(['Server error, please try again later']));
    expect(document.querySelector('.ant-form-item-explain-error')).toBeNull();
  });
});
