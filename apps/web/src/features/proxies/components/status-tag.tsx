import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyStatus } from '@proxy/contract';

const STATUS_COLORS: Record<TProxyStatus, string> = {
  enabled: 'success',
  disabled: 'warning',
  expired: 'error',
  invalid: 'volcano',
  deleted: 'default',
};

/** A token's status as a coloured tag (normal, disabled, expired, invalid, deleted). */
export function StatusTag(props: { status: TProxyStatus }) {
  const { t } = useTranslation('proxies');
  return (
    <Tag color={STATUS_COLORS[props.status]} data-testid="status-tag">
      {t(`status.${props.status}`)}
    </Tag>
  );
}
