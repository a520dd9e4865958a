import { useState } from 'react';
import { Button, Empty, Flex, Input, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  INVENTORY_ASSIGNMENTS,
  INVENTORY_HEALTHS,
  INVENTORY_KINDS,
  INVENTORY_STATUSES,
  type TInventoryNode,
} from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { useInventoryNodes, useProbeNode, type TNodeFilters } from '../api/inventory';
import { HealthTag } from './health-tag';
import { NodeEditModal } from './node-edit-modal';
import { RetireModal } from './retire-modal';

/** The exit list: filters, area, kind, egress, endpoint, exit IP, health, holder; edit, retire and probe now. */
export function NodesPanel() {
  const { t } = useTranslation('admin-inventory');
  const paging = usePaging(20);
  const [filters, setFilters] = useState<TNodeFilters>({});
  const list = useInventoryNodes({ page: paging.page, pageSize: paging.pageSize, filters });
  const probe = useProbeNode();
  const [editing, setEditing] = useState<TInventoryNode | null>(null);
  const [retiring, setRetiring] = useState<TInventoryNode | null>(null);
  const applyFilters = (next: TNodeFilters) => {
    setFilters(next);
    paging.toFirstPage();
  };

  const probeNow = async (node: TInventoryNode) => {
    const found = await probe.mutateAsync(node.id).catch(() => null);
    if (found)
      showSuccess(
        t(`probe.${found.health}`, {
          ip: found.exit_ip ?? '—',
          latency: found.latency_ms ?? '—',
          error: found.probe_error ?? '',
        }),
      );
  };

  const select = <T extends string>(
    name: keyof TNodeFilters,
    values: readonly T[],
    label: (v: T) => string,
    width = 150,
  ) => (
    <Select
      allowClear
      style={{ width }}
      placeholder={t(`filters.${name}`)}
      aria-label={t(`filters.${name}`)}
      value={filters[name] as T | undefined}
      onChange={(value?: T) => applyFilters({ ...filters, [name]: value })}
      options={values.map((v) => ({ value: v, label: label(v) }))}
    />
  );

  const columns: TableColumnsType<TInventoryNode> = [
    { title: t('fields.id'), dataIndex: 'id', width: 70 },
    {
      title: t('fields.area'),
      key: 'area',
      render: (_, n) =>
        [n.country.toUpperCase(), n.state_name || n.state, n.city_name || n.city].filter(Boolean).join(' / '),
    },
    { title: t('fields.kind'), dataIndex: 'kind', width: 130, render: (v: string) => t(`kinds.${v}`) },
    {
      title: t('fields.endpoint'),
      key: 'endpoint',
      render: (_, n) =>
        n.egress === 'direct' ? (
          <Tag>{t('egress.direct')}</Tag>
        ) : (
          <Flex vertical>
            <Typography.Text code>
              {n.egress}://{n.host.includes(':') ? `[${n.host}]` : n.host}:{n.port}
            </Typography.Text>
            {n.username && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('fields.user')}: {n.username}
              </Typography.Text>
            )}
          </Flex>
        ),
    },
    { title: t('fields.exitIp'), dataIndex: 'exit_ip', width: 140, render: (v: string | null) => v ?? '—' },
    { title: t('fields.health'), key: 'health', width: 170, render: (_, n) => <HealthTag node={n} /> },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 100,
      render: (v: 'active' | 'disabled') => <Tag color={v === 'active' ? 'blue' : 'default'}>{t(`status.${v}`)}</Tag>,
    },
    {
      title: t('fields.assignment'),
      key: 'assignment',
      width: 150,
      render: (_, n) => (
        <Flex vertical>
          <span>
            {n.holder_token_id !== null ? t('assignment.heldBy', { id: n.holder_token_id }) : t('assignment.free')}
          </span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`pinned-${n.id}`}>
            {t('fields.pinned', { count: n.pinned_tokens })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, n) =>
        n.egress === 'direct' ? null : (
          <Space size={0} wrap>
            <Button type="link" size="small" onClick={() => setEditing(n)} data-testid={`edit-${n.id}`}>
              {t('actions.edit')}
            </Button>
            <Button
              type="link"
              size="small"
              loading={probe.isPending && probe.variables === n.id}
              onClick={() => void probeNow(n)}
              data-testid={`probe-${n.id}`}
            >
              {t('actions.probe')}
            </Button>
            {n.status === 'active' && (
              <Button type="link" size="small" danger onClick={() => setRetiring(n)} data-testid={`retire-${n.id}`}>
                {t('actions.retire')}
              </Button>
            )}
          </Space>
        ),
    },
  ];

  const isFiltered = Object.values(filters).some((v) => v !== undefined);
  const emptyText = list.isError ? (
    <Empty description={t('errors.list')}>
      <Button onClick={() => void list.refetch()}>{t('retry')}</Button>
    </Empty>
  ) : (
    <Empty description={isFiltered ? t('emptyFiltered') : t('empty')} />
  );

  return (
    <>
      <Flex gap={8} wrap style={{ marginBottom: 16 }} role="search" aria-label={t('filters.label')}>
        <Input.Search
          allowClear
          style={{ maxWidth: 300 }}
          placeholder={t('filters.keyword')}
          aria-label={t('filters.keyword')}
          enterButton={t('filters.search')}
          maxLength={100}
          onSearch={(value) => applyFilters({ ...filters, keyword: value.trim() || undefined })}
        />
        <Input
          allowClear
          style={{ width: 120 }}
          placeholder={t('filters.country')}
          aria-label={t('filters.country')}
          maxLength={2}
          onChange={(e) => {
            const value = e.target.value.trim().toLowerCase();
            if (value === '' || /^[a-z]{2}$/.test(value)) applyFilters({ ...filters, country: value || undefined });
          }}
        />
        {select('kind', INVENTORY_KINDS, (v) => t(`kinds.${v}`), 170)}
        {select('health', INVENTORY_HEALTHS, (v) => t(`health.${v}`))}
        {select('status', INVENTORY_STATUSES, (v) => t(`status.${v}`))}
        {select('assignment', INVENTORY_ASSIGNMENTS, (v) => t(`assignment.${v}`))}
        <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void list.refetch()}>
          {t('refresh')}
        </Button>
      </Flex>
      <Table<TInventoryNode>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        locale={{ emptyText }}
        scroll={{ x: 1300 }}
        pagination={paging.pagination(list.data?.total)}
      />
      <NodeEditModal node={editing} onClose={() => setEditing(null)} />
      <RetireModal node={retiring} onClose={() => setRetiring(null)} />
    </>
  );
}
