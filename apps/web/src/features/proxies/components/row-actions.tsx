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
};

/**
 * A row's actions: details, test, and under "More" enable/disable, reset
 * password (confirm), renew (IP products) and delete (confirm); a deleted
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

  const handleToggle = async () => {
    const status = token.status === 'disabled' ? 'enabled' : 'disabled';
    try {
      await setStatus.mutateAsync({ id: token.token_id, status });
      showSuccess(t(status === 'enabled' ? 'row.enabled' : 'row.disabled'));
    } catch {
      // the request layer has shown why
    }
  };

  const handleReset = () =>
    confirmAction({
      title: t('row.resetConfirmTitle'),
      content: t('row.resetConfirmContent', { name: token.username }),
      onOk: async () => {
        try {
          await reset.mutateAsync(token.token_id);
          showSuccess(t('row.resetDone'));
        } catch {
          // the request layer has shown why
        }
      },
    });

  const handleDelete = () =>
    confirmAction({
      title: t('row.deleteConfirmTitle'),
      content: t('row.deleteConfirmContent', { name: token.username }),
      isDanger: true,
      onOk: async () => {
        try {
          await remove.mutateAsync(token.token_id);
          showSuccess(t('row.deleted'));
        } catch {
          // the request layer has shown why
        }
      },
    });

  // Awaited rather than a mutate() callback: the restored row may leave a "deleted" list before the answer is shown.
  const handleRestore = () =>
    restore.mutateAsync([token.token_id]).then(
      (result) => showBatchResult(result, 'restore', t),
      () => undefined, // the request layer has shown why
    );

  const canToggle = token.status === 'enabled' || token.status === 'disabled';
  const items: MenuProps['items'] = [
    { key: 'toggle', label: token.status === 'disabled' ? t('row.enable') : t('row.disable'), disabled: !canToggle, onClick: handleToggle },
    { key: 'reset', label: t('row.resetPassword'), onClick: handleReset },
    ...(token.type === 'ip' && token.status !== 'invalid' ? [{ key: 'renew', label: t('row.renew'), onClick: () => props.onRenew(token) }] : []),
    { type: 'divider' as const },
    { key: 'delete', label: t('row.delete'), danger: true, onClick: handleDelete },
  ];

  return (
    <Flex gap={0} wrap={false}>
      <Button type="link" size="small" onClick={() => props.onDetail(token)}>
        {t('row.detail')}
      </Button>
      {isDeleted ? (
        <Button type="link" size="small" loading={restore.isPending} onClick={handleRestore}>
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
