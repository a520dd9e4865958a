import { TOKEN_REFRESH_AFTER_MS } from '@proxy/contract/light';
import { callApi } from './api-client';
import { clearToken, getTokenRecord, replaceToken } from './session';

let inflight: Promise<void> | null = null;

/**
 * Refreshes the stored token when it is older than 5 minutes (spec section 2),
 * once at a time. A failed refresh removes the stored token (spec section 7).
 * Answers null when nothing needed doing.
 */
export function refreshTokenIfStale(now = Date.now()): Promise<void> | null {
  const record = getTokenRecord();
  if (!record || now - record.time < TOKEN_REFRESH_AFTER_MS) return null;
  inflight ??= callApi('userRefreshToken', undefined, { skipTips: true })
    .then(
      ({ token }) => replaceToken(token),
      () => clearToken(),
    )
    .finally(() => {
      inflight = null;
    });
  return inflight;
}
