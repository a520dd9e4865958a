import { Alert, Flex, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PLUGIN_ANSWER_TIMEOUT_MS } from '@proxy/contract';
import type { TPluginSetup, TSetupToken } from './use-plugin-setup';

/** The state of a plugin setup as the user sees it (spec section 4: configuring, success, error, timeout). */
export function PluginSetupResult(props: { setup: TPluginSetup; token: TSetupToken | null }) {
  const { t } = useTranslation('common');
  const { setup, token } = props;
  const address = token ? `${token.host}:${token.port}` : '';
  switch (setup.state) {
    case 'idle':
      return null;
    case 'configuring':
      return (
        <Flex gap={12} align="center" data-testid="plugin-setup-state" data-state="configuring">
          <Spin />
          <Typography.Text>
            {t('pluginSetup.configuring', { seconds: PLUGIN_ANSWER_TIMEOUT_MS / 1000 })}
          </Typography.Text>
        </Flex>
      );
    case 'success':
      return (
        <Alert
          type="success"
          showIcon
          title={t('pluginSetup.success')}
          description={t('pluginSetup.successDetail', { address })}
          data-testid="plugin-setup-state"
          data-state="success"
        />
      );
    case 'error':
      return (
        <Alert
          type="error"
          showIcon
          title={t('pluginSetup.error')}
          description={setup.reason}
          data-testid="plugin-setup-state"
          data-state="error"
        />
      );
    case 'timeout':
      return (
        <Alert
          type="warning"
          showIcon
          title={t('pluginSetup.timeout')}
          description={
            <>
              {t('pluginSetup.timeoutDetail', { seconds: PLUGIN_ANSWER_TIMEOUT_MS / 1000 })}{' '}
              <Link to="/tools/plugin">{t('pluginSetup.install')}</Link>
            </>
          }
          data-testid="plugin-setup-state"
          data-state="timeout"
        />
      );
  }
}
