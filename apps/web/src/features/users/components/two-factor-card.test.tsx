import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { TTotpStatus } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { saveSession } from '../../../lib/session';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { TwoFactorCard } from './two-factor-card';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

// The server's two-factor state: set-up makes the secret, the code 123456 turns it on, a recovery code turns it off.
let status: TTotpStatus;
beforeEach(() => {
  saveSession('token', { remember: true });
  status = { enabled: false, enabled_at: null, recovery_codes_left: 0, admin_required: true };
  api.on('userTotpStatus', () => status);
  api.on('userTotpSetup', () => ({
    secret: SECRET,
    otpauth_url: `otpauth://totp/example:alice%40example.com?secret=${SECRET}&issuer=example`,
  }));
  api.on('userTotpEnable', (req) => {
    if ((req.json as { code: string }).code !== '123456')
      return fail(400, 1051, 'The authentication code or recovery code is incorrect', { error: 'TOTP_INVALID_CODE' });
    status = { enabled: true, enabled_at: '2026-03-01T10:00:00.000Z', recovery_codes_left: 10, admin_required: true };
    return { recovery_codes: CODES };
  });
  api.on('userTotpDisable', (req) => {
    if ((req.json as { code: string }).code !== CODES[0])
      return fail(400, 1051, 'The authentication code or recovery code is incorrect', { error: 'TOTP_INVALID_CODE' });
    status = { enabled: false, enabled_at: null, recovery_codes_left: 0, admin_required: true };
    return null;
  });
});

describe('two-factor card', { timeout: 60_000 }, () => {
  it('enrols with a QR code and the key as text, shows the recovery codes once, and turns off with a recovery code', async () => {
    act(() => setLanguage('en'));
    renderAt('/', [{ path: '/', element: <TwoFactorCard /> }]);
    // An operator whose operator area requires two-factor is told so.
    expect(await screen.findByText(/The operator area requires two-factor authentication/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor authentication' }));
    expect((await screen.findByTestId('totp-secret')).textContent).toContain(SECRET);
    expect(document.querySelector('.ant-qrcode svg')).toBeTruthy();

    const input = screen.getByLabelText('6-digit code');
    fireEvent.change(input, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The authentication code or recovery code is incorrect')).toBeTruthy();
    fireEvent.change(input, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const shown = await screen.findByTestId('totp-recovery-codes');
    for (const code of CODES) expect(shown.textContent).toContain(code);
    expect(within(shown).getByRole('button', { name: /Download/ })).toBeTruthy();
    fireEvent.click(within(shown).getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('10 recovery codes left')).toBeTruthy();
    expect(screen.queryByTestId('totp-recovery-codes')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    fireEvent.change(screen.getByLabelText('6-digit code or recovery code'), { target: { value: CODES[0] } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
    expect(api.requestsTo('userTotpDisable').at(-1)?.json).toEqual({ code: CODES[0] });
  });
});
