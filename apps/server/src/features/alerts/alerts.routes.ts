import type { TDeps } from '../../lib/deps';
import type { THandlersOf } from '../../lib/routing';
import { getAlertSettings, saveAlertSettings } from './alerts.service';

/** GET and PUT /user/alerts/settings. */
export function createAlertHandlers(deps: TDeps): THandlersOf<'alerts'> {
  return {
    userAlertSettingsGet: ({ user }) => getAlertSettings(deps, user.id),
    userAlertSettingsPut: ({ input, user, lang }) => saveAlertSettings(deps, user.id, input, lang),
  };
}
