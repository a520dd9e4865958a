import { Alert, Button, Flex, Popconfirm, Typography } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TProxyToken } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { useLatestAutoRenewal, useUndoAutoRenewal } from '../api/auto-renewal';

/**
 * The latest auto-renewal of an IP proxy in its details, with "Undo" while it
 * can be undone (within 24 hours, no traffic since): the charge is refunded,
 * the old expiry comes back and auto-renew turns off. Otherwise why not.
 */
export function AutoRenewUndo(props: { token: TProxyToken }) {
  const { t } = useTranslation('proxies');
  const latest = useLatestAutoRenewal(props.token.type === 'ip' ? props.token.token_id : null);
  const undo = useUndoAutoRenewal();
  const renewal = latest.data;
  if (!renewal) return null;
  const summary = t('undo.summary', {
    at: formatDateTimeSeconds(renewal.renewed_at),
    amount: formatYuan(renewal.amount),
  });
  if (renewal.undo_refusal !== null) {
    return (
      <Typography.Text type="secondary" data-testid="auto-renew-undo">
        {summary} {t(`undo.refusal.${renewal.undo_refusal}`)}
      </Typography.Text>
    );
  }
  const handleUndo = () =>
    undo.mutate(renewal.token_id, {
      onSuccess: (result) =>
        showSuccess(
          t('undo.success', { amount: formatYuan(result.refunded), expires: formatDateTimeSeconds(result.expires_at) }),
        ),
    });
  return (
    <Alert
      type="info"
      showIcon
      data-testid="auto-renew-undo"
      title={summary}
      description={
        <Flex vertical gap={8} align="flex-start">
          <span>
            {t('undo.hint', {
              until: formatDateTimeSeconds(renewal.undo_until),
              expires: formatDateTimeSeconds(renewal.previous_expires_at),
            })}
          </span>
          <Popconfirm
            title={t('undo.confirm', { amount: formatYuan(renewal.amount) })}
            onConfirm={handleUndo}
            okText={t('undo.button')}
          >
            <Button icon={<UndoOutlined />} loading={undo.isPending}>
              {t('undo.button')}
            </Button>
          </Popconfirm>
        </Flex>
      }
    />
  );
}
