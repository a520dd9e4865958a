import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLUGIN_ANSWER_TIMEOUT_MS, type TPluginSetupState, type TProxyToken } from '@proxy/contract';
import { ApiError } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { sendToExtension } from './extension-bridge';
import { requestPluginGrant } from './plugin-grant';
import { pluginInfoQueryOptions } from './plugin-info';

/** Where a plugin setup stands (spec section 4), with the reason of an error. */
export type TPluginSetup = { state: TPluginSetupState | 'idle'; reason?: string };

/** The proxy fields a setup needs. */
export type TSetupToken = Pick<TProxyToken, 'token_id' | 'network' | 'host' | 'port'>;

/**
 * Sends a proxy to the browser plugin: configuring, then success, error (with
 * the reason in the user's language) or timeout when the plugin does not
 * answer within PLUGIN_ANSWER_TIMEOUT_MS. SOCKS5 is refused before anything is sent.
 */
export function usePluginSetup() {
  const { t } = useTranslation('common');
  const [setup, setSetup] = useState<TPluginSetup>({ state: 'idle' });
  const run = useRef(0);

  const start = useCallback(
    async (token: TSetupToken) => {
      const id = ++run.current;
      const settle = (next: TPluginSetup) => {
        if (run.current === id) setSetup(next);
      };
      if (token.network === 'SOCKS5')
        return settle({ state: 'error', reason: t('pluginSetup.reasons.socks5-unsupported') });
      settle({ state: 'configuring' });
      try {
        const info = await queryClient.fetchQuery(pluginInfoQueryOptions());
        if (!info.extension_id) return settle({ state: 'error', reason: t('pluginSetup.notBuilt') });
        const { grant } = await requestPluginGrant(token.token_id);
        const answer = await sendToExtension(info.extension_id, { type: 'apply', grant }, PLUGIN_ANSWER_TIMEOUT_MS);
        if (answer === null) return settle({ state: 'timeout' });
        if (answer.ok) return settle({ state: 'success' });
        settle({ state: 'error', reason: t(`pluginSetup.reasons.${answer.reason}`) });
      } catch (error) {
        settle({
          state: 'error',
          reason: error instanceof ApiError ? error.msg : error instanceof Error ? error.message : String(error),
        });
      }
    },
    [t],
  );

  const reset = useCallback(() => {
    run.current += 1;
    setSetup({ state: 'idle' });
  }, []);

  return { setup, start, reset };
}
