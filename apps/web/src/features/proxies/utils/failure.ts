import { ApiError, NETWORK_ERROR_CODE } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { showError } from '../../../lib/message';

/** True when the call was cancelled (a query that was superseded), which is no failure to show. */
export function isCancelled(error: unknown, signal?: AbortSignal): boolean {
  return error instanceof ApiError && error.code === NETWORK_ERROR_CODE && (signal?.aborted === true || error.msg === 'canceled');
}

/**
 * The text of a failed action: the server's own reason when it refused the
 * request for a cause the user can act on (insufficient balance, no stock...),
 * otherwise the spec's message for the action (section 8), e.g. "renewal
 * failed, please try again later".
 */
export function failureText(error: unknown, fallbackKey: string): string {
  const fallback = translate(fallbackKey);
  if (!(error instanceof ApiError)) return fallback;
  const isRefusal = error.status !== undefined && error.status >= 400 && error.status < 500 && error.code !== 401 && error.code > 0;
  return isRefusal && error.msg ? `${fallback}: ${error.msg}` : fallback;
}

/** Toasts a failed action (see failureText); session errors were already handled by the request layer. */
export function showFailure(error: unknown, fallbackKey: string): void {
  if (error instanceof ApiError && (error.code === -401 || error.code === 401)) return;
  showError(failureText(error, fallbackKey));
}
