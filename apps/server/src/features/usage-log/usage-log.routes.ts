import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { exportUsageLog, getUsageLog, getUsageLogSettings, updateUsageLogSettings } from './usage-log.service';

/** The usage log: the setting (user centre), a proxy's log and CSV, and the customer API's list. */
export function createUsageLogHandlers(deps: TDeps): THandlersOf<'usage-log'> {
  return {
    userUsageLogSettings: async ({ user }) => getUsageLogSettings(deps, user.id),
    userUsageLogSettingsUpdate: async ({ input, user }) => updateUsageLogSettings(deps, user.id, input),
    tokenUsageLog: async ({ input, user }) => getUsageLog(deps, user.id, input),
    tokenUsageLogExport: async ({ input, user }) => exportUsageLog(deps, user.id, input),
    v1ProxyConnections: async ({ input, user }) =>
      getUsageLog(deps, user.id, { ...input, token_id: input.proxyId, page: input.page, page_size: input.pageSize }),
  };
}
