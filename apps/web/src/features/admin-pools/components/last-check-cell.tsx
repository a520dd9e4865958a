import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TPoolLastCheck } from '@proxy/contract';
import { formatDateTimeSeconds, formatMilliseconds } from '../../../lib/format';

/** Tag colours of a check's outcome: found an exit, refused by the provider, or no answer. */
export const OUTCOME_COLORS: Record<TPoolLastCheck['outcome'], string> = {
  ok: 'green',
  'bad-credentials': 'red',
  'area-not-served': 'orange',
  refused: 'red',
  timeout: 'volcano',
  unreachable: 'volcano',
  'echo-failed': 'gold',
};

/** What the last check of a pool found: the outcome, the exit IP, its country and the latency, the area and when. */
export function LastCheckCell({ poolId, check }: { poolId: number; check: TPoolLastCheck | null }) {
  const { t } = useTranslation('admin-pools');
  if (!check)
    return (
      <Typography.Text type="secondary" data-testid={`last-check-${poolId}`}>
        {t('lastCheck.never')}
      </Typography.Text>
    );
  const found = [
    check.exit_ip,
    check.exit_country?.toUpperCase(),
    check.latency_ms !== null ? formatMilliseconds(check.latency_ms) : null,
  ].filter(Boolean);
  return (
    <Flex vertical gap={2} data-testid={`last-check-${poolId}`}>
      <span>
        <Tag color={OUTCOME_COLORS[check.outcome]}>{t(`outcomes.${check.outcome}`)}</Tag>
        {found.length > 0 && <Typography.Text>{found.join(' · ')}</Typography.Text>}
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('lastCheck.area', { area: check.area })} · {formatDateTimeSeconds(check.at)}
      </Typography.Text>
    </Flex>
  );
}
