import type { TSystemSettings } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { ADMIN_TOTP_REQUIRED, hasTotpEnabled, isAdminTotpRequired } from '../auth/totp.service';
import type { TUserRow } from '../accounts/accounts.repository';
import { writeSetting } from '../../lib/system-settings.repository';

/** GET /admin/system/settings. */
export async function getSystemSettings(deps: TDeps): Promise<TSystemSettings> {
  return { admin_totp_required: await isAdminTotpRequired(deps) };
}

/**
 * PUT /admin/system/settings. Turning the two-factor requirement on needs
 * two-factor on the caller's own account (TOTP_REQUIRED_FOR_ADMIN), so an
 * operator cannot lock themself out of the operator area.
 */
export async function updateSystemSettings(
  deps: TDeps,
  operator: TUserRow,
  input: TSystemSettings,
): Promise<TSystemSettings> {
  if (input.admin_totp_required && !(await hasTotpEnabled(deps, operator.id)))
    throw new AppError('TOTP_REQUIRED_FOR_ADMIN');
  // In a transaction: an operator change's audit entry is written in it (features/audit).
  await deps.db.transaction((tx) => writeSetting(tx, ADMIN_TOTP_REQUIRED, input.admin_totp_required, deps.clock.now()));
  return getSystemSettings(deps);
}

/**
 * Every operator call: when the operator area requires two-factor,
 * an operator without it is refused (TOTP_REQUIRED_FOR_ADMIN: enable it in
 * the user centre, which stays open to them).
 */
export async function requireAdminTwoFactor(deps: TDeps, operator: TUserRow): Promise<void> {
  if ((await isAdminTotpRequired(deps)) && !(await hasTotpEnabled(deps, operator.id)))
    throw new AppError('TOTP_REQUIRED_FOR_ADMIN');
}
