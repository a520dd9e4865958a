import { Select, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { REBATE_STATUSES, type TRebateReason, type TRebateStatus } from '@proxy/contract';

const COLORS: Record<TRebateStatus, string> = {
  pending: 'processing',
  success: 'success',
  failed: 'error',
  unknown: 'default',
};

/** A rebate's state (spec section 4); why it failed or is unknown in a tooltip. */
export function RebateStatusTag(props: { status: TRebateStatus; reason: TRebateReason | null }) {
  const { t } = useTranslation('common');
  const tag = <Tag color={COLORS[props.status]}>{t(`rebates.status.${props.status}`)}</Tag>;
  return props.reason ? <Tooltip title={t(`rebates.reason.${props.reason}`)}>{tag}</Tooltip> : tag;
}

/** Why a rebate failed or is unknown, as text. */
export function RebateReasonText(props: { reason: TRebateReason }) {
  const { t } = useTranslation('common');
  return <>{t(`rebates.reason.${props.reason}`)}</>;
}

/** The status filter of a rebate list (cleared: every state). */
export function RebateStatusSelect(props: {
  value: TRebateStatus | undefined;
  onChange: (status: TRebateStatus | undefined) => void;
}) {
  const { t } = useTranslation('common');
  return (
    <Select<TRebateStatus>
      allowClear
      aria-label={t('rebates.filterStatus')}
      placeholder={t('rebates.filterStatus')}
      style={{ width: 200 }}
      value={props.value}
      onChange={(value) => props.onChange(value)}
      options={REBATE_STATUSES.map((s) => ({ value: s, label: t(`rebates.status.${s}`) }))}
    />
  );
}
