/** Business constants of spec section 9 and ARCHITECTURE.md. */

/** Client request timeout. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Access token lifetime and the console's stored-token expiry, in seconds. */
export const ACCESS_TOKEN_TTL_S = 3600 * 60;
/** The console refreshes a stored token older than this. */
export const TOKEN_REFRESH_AFTER_MS = 5 * 60 * 1000;
/** Message auto-dismiss. */
export const MESSAGE_DURATION_MS = 2000;
/** Loading bar ends this long after navigation. */
export const LOADING_BAR_END_DELAY_MS = 200;
/** Pages kept alive by the root view. */
export const PAGE_CACHE_SIZE = 3;
/** A user whose cumulative recharge exceeds this (yuan) has the role "user". */
export const ROLE_USER_THRESHOLD_YUAN = 1;
/** Trial credit on first login, in fen (15 yuan). */
export const TRIAL_CREDIT_FEN = 1500;
/** Verification codes: validity, resend interval and wrong tries before void. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_RESEND_MS = 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** Fixed product name used as the page title. */
export const PRODUCT_NAME = 'ProxyHub';
/** Theme primary colour. */
export const PRIMARY_COLOR = '#0059ff';
/** Marketing claims (spec section 1). */
export const CLAIMS = { residentialIps: '32M+', countries: 195, uptime: '99.9%' } as const;

/** Roles derived on the client from total_balance (spec section 6). */
export function deriveRoles(totalBalanceYuan: number): string[] {
  return totalBalanceYuan > ROLE_USER_THRESHOLD_YUAN ? ['user'] : [];
}
