import type { TSystemSettings, TSystemSettingsUpdate } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { ADMIN_TOTP_REQUIRED, hasTotpEnabled, isAdminTotpRequired } from '../auth/totp.service';
import type { TUserRow } from '../accounts/accounts.repository';
import { writeSetting } from '../../lib/system-settings.repository';
import { IP_DYNAMIC_FAIR_USE_GB_PER_DAY, readFairUseGbPerDay } from '../areas/fair-use';
import { CLAIM_SETTING_KEYS, readClaims } from '../site/claims.service';

/** GET /admin/system/settings. */
export async function getSystemSettings(deps: TDeps): Promise<TSystemSettings> {
  const claims = await readClaims(deps.db);
  return {
    admin_totp_required: await isAdminTotpRequired(deps),
    ip_dynamic_fair_use_gb_per_day: await readFairUseGbPerDay(deps.db),
    claim_residential_ips: claims.residential_ips,
    claim_countries: claims.countries,
    claim_uptime: claims.uptime,
  };
}

/**
 * PUT /admin/system/settings: the settings given (one left out keeps its value).
 * Turning the two-factor requirement on needs two-factor on the caller's own
 * account (TOTP_REQUIRED_FOR_ADMIN), so an operator cannot lock themself out of
 * the operator area. Turning the fair-use traffic off (0) leaves the
 * allowances already given as they are.
 */
export async function updateSystemSettings(
  deps: TDeps,
  operator: TUserRow,
  input: TSystemSettingsUpdate,
): Promise<TSystemSettings> {
  if (input.admin_totp_required && !(await hasTotpEnabled(deps, operator.id)))
    throw new AppError('TOTP_REQUIRED_FOR_ADMIN');
  // In a transaction: an operator change's audit entry is written in it (features/audit).
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    if (input.admin_totp_required !== undefined)
      await writeSetting(tx, ADMIN_TOTP_REQUIRED, input.admin_totp_required, now);
    if (input.ip_dynamic_fair_use_gb_per_day !== undefined) {
      // Stored in tenths' exact decimal (0.1 + 0.2 does not reach the database as 0.30000000000000004).
      const gb = Math.round(input.ip_dynamic_fair_use_gb_per_day * 10) / 10;
      await writeSetting(tx, IP_DYNAMIC_FAIR_USE_GB_PER_DAY, gb, now);
    }
    // The marketing figures shown on every page that names them (features/site/claims.ts).
    if (input.claim_residential_ips !== undefined)
      await writeSetting(tx, CLAIM_SETTING_KEYS.residential_ips, input.claim_residential_ips, now);
    if (input.claim_countries !== undefined)
      await writeSetting(tx, CLAIM_SETTING_KEYS.countries, input.claim_countries, now);
    if (input.claim_uptime !== undefined) await writeSetting(tx, CLAIM_SETTING_KEYS.uptime, input.claim_uptime, now);
  });
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
