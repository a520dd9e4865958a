import type { ComponentProps, ReactNode } from 'react';
import { Button, Empty, Flex, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen, type TPool } from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { HealthCell } from './health-cell';
import { LastCheckCell } from './last-check-cell';

/** What a row's buttons do. */
export type TPoolRowActions = {
  onEdit: (pool: TPool) => void;
  onCheck: (pool: TPool) => void;
  onAreas: (pool: TPool) => void;
  onToggle: (pool: TPool) => void;
  onDelete: (pool: TPool) => void;
  /** The pool whose pause or resume is under way. */
  togglingId: number | null;
};

const endpointText = (e: { host: string; port: number }) =>
  `${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;

/**
 * The pools: name and kind, protocol, endpoints in order, status, priority and weight, cost per GB, coverage, the
 * last check; each row's actions are buttons named with the pool (keyboard and screen reader alike).
 */
export function PoolsTable(props: {
  pools: TPool[];
  isLoading: boolean;
  emptyText: ReactNode;
  pagination: ComponentProps<typeof Table>['pagination'];
  actions: TPoolRowActions;
}) {
  const { t } = useTranslation('admin-pools');
  const isPhone = useIsPhone();
  const { actions } = props;
  const rowButton = (pool: TPool, action: string, text: string, onClick: () => void, extra = {}) => (
    <Button
      type="link"
      size="small"
      onClick={onClick}
      aria-label={t('actions.rowLabel', { action: text, name: pool.name })}
      data-testid={`${action}-${pool.id}`}
      {...extra}
    >
      {text}
    </Button>
  );

  // The name and the actions stay in view while the rest scrolls, what matters most first; on a phone nothing is
  // pinned (two pinned columns would cover each other and the buttons).
  const columns: TableColumnsType<TPool> = [
    {
      title: t('columns.name'),
      key: 'name',
      fixed: isPhone ? undefined : 'left',
      width: 160,
      render: (_, p) => (
        <Flex vertical>
          <Typography.Text strong>{p.name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`kinds.${p.kind}`)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: TPool['status'], p) => (
        <Tag color={v === 'enabled' ? 'green' : 'default'} data-testid={`status-${p.id}`}>
          {t(`status.${v}`)}
        </Tag>
      ),
    },
    {
      title: t('columns.health'),
      key: 'health',
      width: 220,
      render: (_, p) => <HealthCell poolId={p.id} health={p.health} />,
    },
    {
      title: t('columns.lastCheck'),
      key: 'lastCheck',
      width: 240,
      render: (_, p) => <LastCheckCell poolId={p.id} check={p.last_check} />,
    },
    {
      title: t('columns.endpoints'),
      key: 'endpoints',
      width: 210,
      render: (_, p) => (
        <Flex vertical align="start">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`protocols.${p.protocol}`)}
          </Typography.Text>
          {p.endpoints.map((e, i) => (
            <Typography.Text code key={i} style={{ whiteSpace: 'nowrap' }}>
              {endpointText(e)}
            </Typography.Text>
          ))}
        </Flex>
      ),
    },
    {
      title: t('columns.cost'),
      dataIndex: 'cost_per_gb_fen',
      align: 'right',
      width: 110,
      render: (v: number, p) => <span data-testid={`cost-${p.id}`}>{formatFen(v)}</span>,
    },
    {
      title: t('columns.priorityWeight'),
      key: 'priority',
      width: 120,
      render: (_, p) => `${p.priority} / ${p.weight}`,
    },
    {
      title: t('columns.coverage'),
      key: 'coverage',
      width: 140,
      render: (_, p) => (
        <Flex vertical data-testid={`coverage-${p.id}`}>
          <span>{p.coverage_mode === 'all' ? t('coverage.all') : t('coverage.list', { count: p.coverage_count })}</span>
          {p.area_mapping_count > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('coverage.spellings', { count: p.area_mapping_count })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: isPhone ? undefined : 'right',
      width: 200,
      render: (_, p) => (
        <Space size={0} wrap>
          {rowButton(p, 'edit', t('actions.edit'), () => actions.onEdit(p))}
          {rowButton(p, 'check', t('actions.check'), () => actions.onCheck(p))}
          {rowButton(p, 'areas', t('actions.areas'), () => actions.onAreas(p))}
          {rowButton(
            p,
            'toggle',
            p.status === 'enabled' ? t('actions.pause') : t('actions.resume'),
            () => actions.onToggle(p),
            {
              loading: actions.togglingId === p.id,
            },
          )}
          {rowButton(p, 'delete', t('actions.delete'), () => actions.onDelete(p), {
            danger: true,
            title: p.status === 'enabled' ? t('delete.enabledHint') : undefined,
          })}
        </Space>
      ),
    },
  ];

  return (
    <Table<TPool>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={props.pools}
      loading={props.isLoading}
      locale={{ emptyText: props.emptyText ?? <Empty /> }}
      scroll={{ x: 1270 }}
      pagination={props.pagination}
    />
  );
}
