import { useEffect } from 'react';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { PluginSetupResult } from './plugin-setup-result';
import { usePluginSetup, type TSetupToken } from './use-plugin-setup';

/** "Plugin setting" of a proxy: sends it to the browser plugin as soon as it opens and shows how that went. */
export function PluginSetupModal(props: { token: (TSetupToken & { username: string }) | null; onClose: () => void }) {
  const { t } = useTranslation('common');
  const { setup, start, reset } = usePluginSetup();
  const { token } = props;

  useEffect(() => {
    if (token) void start(token);
    else reset();
  }, [token, start, reset]);

  return (
    <Modal
      open={token !== null}
      title={t('pluginSetup.title', { name: token?.username ?? '' })}
      onCancel={props.onClose}
      destroyOnHidden
      footer={[
        setup.state === 'error' || setup.state === 'timeout' ? (
          <Button key="retry" onClick={() => token && void start(token)}>
            {t('pluginSetup.retry')}
          </Button>
        ) : null,
        <Button key="close" type="primary" onClick={props.onClose}>
          {t('pluginSetup.close')}
        </Button>,
      ]}
    >
      <PluginSetupResult setup={setup} token={token} />
    </Modal>
  );
}
