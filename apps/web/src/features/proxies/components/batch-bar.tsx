import { Button, Flex, Typography } from 'antd';
import { DeleteOutlined, ExportOutlined, FieldTimeOutlined, RedoOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { validationMessage, type TBatchResult, type TProxyToken } from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';
import { confirmAction, showError, showSuccess, showWarning } from '../../../lib/message';
import { useBatchDeleteTokens } from '../api/batch-delete';
import { useBatchRestoreTokens } from '../api/batch-restore';
import { useSetAutoRenew } from '../api/set-auto-renew';
import type { TScreenConfig } from '../utils/screens';

/** Toasts of a batch answer: "Successfully deleted {success}/{total}" and "Failed to delete {failed}/{total}" (spec section 8). */
export function showBatchResult(
  result: TBatchResult,
  action: 'delete' | 'restore' | 'autoRenew',
  t: (key: string, options?: Record<string, unknown>) => string,
): void {
  if (result.success > 0) showSuccess(t(`batch.${action}.success`, { success: result.success, total: result.total }));
  if (result.failed > 0) showError(t(`batch.${action}.failed`, { failed: result.failed, total: result.total }));
}

/**
 * Batch actions on the selected proxies: delete, restore, auto-renew on/off,
 * renew and export. Each needs at least one selection (spec section 5),
 * except export, which without a selection takes the list's current filter.
 */
export function BatchBar(props: {
  screen: TScreenConfig;
  selected: TProxyToken[];
  hasIpProducts: boolean;
  onDone: () => void;
  onRenew: (tokens: TProxyToken[]) => void;
  onExport: () => void;
}) {
  const { t } = useTranslation('proxies');
  const batchDelete = useBatchDeleteTokens();
  const batchRestore = useBatchRestoreTokens();
  const autoRenew = useSetAutoRenew(props.screen);
  const ids = props.selected.map((token) => token.token_id);

  const requireSelection = (): boolean => {
    if (ids.length > 0) return true;
    showWarning(validationMessage('selectionRequired', getLanguage()));
    return false;
  };

  const finish = (result: TBatchResult, action: 'delete' | 'restore' | 'autoRenew') => {
    showBatchResult(result, action, t);
    props.onDone();
  };

  const handleDelete = () => {
    if (!requireSelection()) return;
    confirmAction({
      title: t('batch.delete.confirmTitle'),
      content: t('batch.delete.confirmContent', { count: ids.length }),
      isDanger: true,
      // The OK button keeps loading until the call settles; a failure was shown by the request layer.
      onOk: () =>
        batchDelete.mutateAsync(ids).then(
          (result) => finish(result, 'delete'),
          () => undefined,
        ),
    });
  };

  const handleRestore = () => {
    if (requireSelection()) batchRestore.mutate(ids, { onSuccess: (result) => finish(result, 'restore') });
  };

  const ipTokens = () => props.selected.filter((token) => token.type === 'ip' && token.status !== 'deleted');

  const handleAutoRenew = (isOn: boolean) => {
    if (!requireSelection()) return;
    const tokens = ipTokens();
    if (tokens.length === 0) showWarning(t('batch.ipOnly'));
    else
      autoRenew.mutate(
        { tokenIds: tokens.map((x) => x.token_id), isOn },
        { onSuccess: (result) => finish(result, 'autoRenew') },
      );
  };

  const handleRenew = () => {
    if (!requireSelection()) return;
    const tokens = ipTokens();
    if (tokens.length === 0) showWarning(t('batch.ipOnly'));
    else props.onRenew(tokens);
  };

  return (
    <Flex align="center" gap={8} wrap data-testid="batch-bar">
      <Typography.Text type="secondary">{t('batch.selected', { count: ids.length })}</Typography.Text>
      <Button danger icon={<DeleteOutlined />} loading={batchDelete.isPending} onClick={handleDelete}>
        {t('batch.delete.button')}
      </Button>
      <Button icon={<RedoOutlined />} loading={batchRestore.isPending} onClick={handleRestore}>
        {t('batch.restore.button')}
      </Button>
      {props.hasIpProducts && (
        <>
          <Button
            icon={<SyncOutlined />}
            loading={autoRenew.isPending && autoRenew.variables?.isOn === true}
            onClick={() => handleAutoRenew(true)}
          >
            {t('batch.autoRenewOn')}
          </Button>
          <Button
            loading={autoRenew.isPending && autoRenew.variables?.isOn === false}
            onClick={() => handleAutoRenew(false)}
          >
            {t('batch.autoRenewOff')}
          </Button>
          <Button icon={<FieldTimeOutlined />} onClick={handleRenew}>
            {t('batch.renew')}
          </Button>
        </>
      )}
      <Button icon={<ExportOutlined />} onClick={props.onExport}>
        {t('batch.export')}
      </Button>
    </Flex>
  );
}
