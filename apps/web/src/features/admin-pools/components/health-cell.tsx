import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TPoolHealth } from '@proxy/contract';

/**
 * A pool's health across the fleet (the gateways' reports of the last minute, each over its last 5 minutes):
 * the share of dials that got a tunnel, their mean connect time, open connections, and the gateways that skip the
 * pool (or some of its countries) now; the failures by reason on hover.
 */
export function HealthCell(props: { poolId: number; health: TPoolHealth }) {
  const { t } = useTranslation('admin-pools');
  const { health } = props;
  if (health.gateways === 0)
    return (
      <Typography.Text type="secondary" data-testid={`health-${props.poolId}`}>
        {t('health.none')}
      </Typography.Text>
    );
  const rate = health.attempts > 0 ? Math.round((health.successes / health.attempts) * 1000) / 10 : null;
  const failures = Object.entries(health.refusals).sort((a, b) => b[1] - a[1]);
  const summary = (
    <Typography.Text>
      {rate === null ? t('health.noDials') : t('health.rate', { rate })}
      {health.avg_connect_ms !== null && ` · ${t('health.connect', { ms: health.avg_connect_ms })}`}
    </Typography.Text>
  );
  return (
    <Flex vertical align="start" gap={2} data-testid={`health-${props.poolId}`}>
      {failures.length > 0 ? (
        <Tooltip
          title={failures
            .map(([reason, n]) => `${t(`health.reasons.${reason}`, { defaultValue: reason })}: ${n}`)
            .join('\n')}
        >
          {summary}
        </Tooltip>
      ) : (
        summary
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('health.fleet', { gateways: health.gateways, open: health.open_connections })}
      </Typography.Text>
      {health.circuit_open_on > 0 && (
        <Tag color="error">{t('health.circuitOpen', { count: health.circuit_open_on, gateways: health.gateways })}</Tag>
      )}
      {health.open_areas.length > 0 && (
        <Tag color="warning">
          {t('health.areasSkipped', { areas: health.open_areas.map((a) => a.toUpperCase()).join(', ') })}
        </Tag>
      )}
    </Flex>
  );
}
