import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TInventoryNode } from '@proxy/contract';
import { formatDateTimeSeconds, formatMilliseconds } from '../../../lib/format';

const COLORS = { up: 'green', down: 'red', unknown: 'default' } as const;

/** What the probe last found about an exit: health, latency, when, and why it failed. */
export function HealthTag({ node }: { node: TInventoryNode }) {
  const { t } = useTranslation('admin-inventory');
  if (node.egress === 'direct') return <Tag>{t('health.direct')}</Tag>;
  const tag = (
    <Tag color={COLORS[node.health]} data-testid={`health-${node.id}`}>
      {t(`health.${node.health}`)}
      {node.health === 'up' && node.latency_ms !== null ? ` · ${formatMilliseconds(node.latency_ms)}` : ''}
    </Tag>
  );
  return (
    <Flex vertical gap={2}>
      {node.probe_error ? <Tooltip title={node.probe_error}>{tag}</Tooltip> : tag}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {node.checked_at ? formatDateTimeSeconds(node.checked_at) : t('health.never')}
      </Typography.Text>
    </Flex>
  );
}
