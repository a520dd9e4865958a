import { CLAIMS, zClaimCountries, zClaimText, type TClaims } from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { readSetting } from '../../lib/system-settings.repository';

/**
 * The system settings of the marketing figures (spec section 1), set by operators in the system settings
 * (docs/operator-guide.md, "Marketing figures"); each one unset shows the spec's figure (CLAIMS).
 */
export const CLAIM_SETTING_KEYS = {
  residential_ips: 'claim_residential_ips',
  countries: 'claim_countries',
  uptime: 'claim_uptime',
} as const;

/** The marketing figures shown: each stored one its rule accepts, else the spec's figure. */
export async function readClaims(db: TDbOrTx): Promise<TClaims> {
  const [ips, countries, uptime] = await Promise.all([
    readSetting(db, CLAIM_SETTING_KEYS.residential_ips),
    readSetting(db, CLAIM_SETTING_KEYS.countries),
    readSetting(db, CLAIM_SETTING_KEYS.uptime),
  ]);
  const parsedIps = zClaimText.safeParse(ips);
  const parsedCountries = zClaimCountries.safeParse(countries);
  const parsedUptime = zClaimText.safeParse(uptime);
  return {
    residential_ips: parsedIps.success ? parsedIps.data : CLAIMS.residentialIps,
    countries: parsedCountries.success ? parsedCountries.data : CLAIMS.countries,
    uptime: parsedUptime.success ? parsedUptime.data : CLAIMS.uptime,
  };
}
