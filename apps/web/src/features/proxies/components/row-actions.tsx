import { Button, Dropdown, Flex, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import { confirmAction, showSuccess } from '../../../lib/message';
import { useBatchRestoreTokens } from '../api/batch-restore';
import { useDeleteToken } from '../api/delete-token';
import { useResetTokenPassword } from '../api/reset-token-password';
import { useSetTokenStatus } from '../api/set-token-status';
import { showBatchResult } from './batch-bar';

/** What the row asks the screen to open. */
export type TRowHandlers = {
  onDetail: (token: TProxyToken) => void;
  onTest: (token: TProxyToken) => void;
  onRenew: (token: TProxyToken) => void;
  /** Sends the proxy to the browser plugin (spec section 2, plugin setting). */
  onPluginSetting: (token: TProxyToken) => void;
};

/**
 * A row's actions: details, test, and under "More" enable/disable, reset
 * password (confirm), renew (IP products), plugin setting and delete (confirm); a deleted
 * proxy offers restore instead.
 */
export function RowActions(props: { token: TProxyToken } & TRowHandlers) {
  const { t } = useTranslation('proxies');
  const { token } = props;
  const setStatus = useSetTokenStatus();
  const remove = useDeleteToken();
  const reset = useResetTokenPassword();
  const restore = useBatchRestoreTokens();
  const isDeleted = token.status === 'deleted';

  /**
   * Awaits a row's call, then says it is done (a failure was shown by the
   * request layer). Awaited rather than a mutate() callback: the row may leave
   * the list (a restored or deleted proxy) before the answer is shown.
   */
  const settle = <T,>(call: Promise<T>, onDone: (answer: T) => void) => call.then(onDone, () => undefined);

  const handleToggle = () => {
    const status = token.status === 'disabled' ? 'enabled' : 'disabled';
    return settle(setStatus.mutateAsync({ id: token.token_id, status }), () =>
      showSuccess(t(status === 'enabled' ? 'row.enabled' : 'row.disabled')),
    );
  };

  const handleReset = () =>
    confirmAction({
      title: t('row.resetConfirmTitle'),
      content: t('row.resetConfirmContent', { name: token.username }),
      onOk: () => settle(reset.mutateAsync(token.token_id), () => showSuccess(t('row.resetDone'))),
    });

  const handleDelete = () =>
    confirmAction({
      title: t('row.deleteConfirmTitle'),
      content: t('row.deleteConfirmContent', { name: token.username }),
      isDanger: true,
      onOk: () => settle(remove.mutateAsync(token.token_id), () => showSuccess(t('row.deleted'))),
    });

  const handleRestore = () =>
    settle(restore.mutateAsync([token.token_id]), (result) => showBatchResult(result, 'restore', t));

  const canToggle = token.status === 'enabled' || token.status === 'disabled';
  const items: MenuProps['items'] = [
    {
      key: 'toggle',
      label: token.status === 'disabled' ? t('row.enable') : t('row.disable'),
      disabled: !canToggle,
      onClick: () => void handleToggle(),
    },
    { key: 'reset', label: t('row.resetPassword'), onClick: handleReset },
    ...(token.type === 'ip' && token.status !== 'invalid'
      ? [{ key: 'renew', label: t('row.renew'), onClick: () => props.onRenew(token) }]
      : []),
    { key: 'plugin', label: t('row.pluginSetting'), onClick: () => props.onPluginSetting(token) },
    { type: 'divider' as const },
    { key: 'delete', label: t('row.delete'), danger: true, onClick: handleDelete },
  ];

  return (
    <Flex gap={0} wrap={false}>
      <Button type="link" size="small" onClick={() => props.onDetail(token)}>
        {t('row.detail')}
      </Button>
      {isDeleted ? (
        <Button type="link" size="small" loading={restore.isPending} onClick={() => void handleRestore()}>
          {t('row.restore')}
        </Button>
      ) : (
        <>
          <Button type="link" size="small" onClick={() => props.onTest(token)}>
            {t('row.test')}
          </Button>
          <Dropdown menu={{ items }} trigger={['click']}>
            <Button type="link" size="small" aria-label={t('row.moreFor', { name: token.username })}>
              {t('row.more')} <DownOutlined />
            </Button>
          </Dropdown>
        </>
      )}
    </Flex>
  );
}
