import { translate } from '../../../lib/i18n';
import { showError } from '../../../lib/message';
import { queryClient } from '../../../lib/query-client';
import { refreshUserInfo, USER_INFO_QUERY_KEY } from '../../../lib/user-info';

/** Reloads the balance after money moved; says "balance refresh failed" (spec section 8) when it cannot. */
export async function refreshBalance(): Promise<void> {
  await refreshUserInfo();
  if (queryClient.getQueryState(USER_INFO_QUERY_KEY)?.status === 'error') showError(translate('proxies:errors.balanceRefresh'));
}
