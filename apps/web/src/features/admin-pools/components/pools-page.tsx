import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, Select, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { POOL_STATUSES, errorMessage, type TPool } from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';
import { confirmAction, showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { useDeletePool, usePools, useSetPoolStatus, type TPoolFilters } from '../api/pools';
import { AreaListsDrawer } from './area-lists-drawer';
import { CheckModal } from './check-modal';
import { PoolFormDrawer } from './pool-form-drawer';
import { PoolsTable } from './pools-table';

/**
 * /admin/pools: the upstream pools (docs/pools.md) with their last check; add and edit (the password write-only),
 * pause and resume, delete once paused, coverage and area spellings by CSV, and a check through the template.
 */
export default function PoolsPage() {
  const { t } = useTranslation('admin-pools');
  const paging = usePaging(20);
  const [filters, setFilters] = useState<TPoolFilters>({});
  const list = usePools({ page: paging.page, pageSize: paging.pageSize, filters });
  const setStatus = useSetPoolStatus();
  const remove = useDeletePool();
  const [form, setForm] = useState<{ pool: TPool | null } | null>(null);
  const [checking, setChecking] = useState<TPool | null>(null);
  const [areas, setAreas] = useState<TPool | null>(null);

  const applyFilters = (next: TPoolFilters) => {
    setFilters(next);
    paging.toFirstPage();
  };

  const changeStatus = async (pool: TPool, status: 'enabled' | 'paused') => {
    const done = await setStatus.mutateAsync({ id: pool.id, status }).catch(() => null);
    if (done) showSuccess(t(status === 'paused' ? 'paused' : 'resumed', { name: pool.name }));
  };

  // An enabled pool may carry connections: the API refuses to delete it, so the operator is offered to pause it first.
  const askDelete = (pool: TPool) => {
    if (pool.status === 'enabled') {
      confirmAction({
        title: t('delete.enabledTitle', { name: pool.name }),
        content: errorMessage('POOL_ENABLED', getLanguage()),
        okText: t('delete.pauseFirst'),
        onOk: () => changeStatus(pool, 'paused'),
      });
      return;
    }
    confirmAction({
      title: t('delete.title', { name: pool.name }),
      content: t('delete.content'),
      okText: t('delete.confirm'),
      isDanger: true,
      // A refusal (the pool was resumed meanwhile) is toasted in the API's words; the dialog closes either way.
      onOk: () =>
        remove.mutateAsync(pool.id).then(
          () => {
            showSuccess(t('delete.done', { name: pool.name }));
            if (list.data?.records.length === 1) paging.toPreviousPage();
          },
          () => undefined,
        ),
    });
  };

  const isFiltered = Object.values(filters).some((v) => v !== undefined);
  const emptyText = list.isError ? (
    <Empty description={t('errors.list')}>
      <Button onClick={() => void list.refetch()}>{t('retry')}</Button>
    </Empty>
  ) : isFiltered ? (
    <Empty description={t('emptyFiltered')} />
  ) : (
    <Empty description={t('empty')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ pool: null })}>
        {t('add')}
      </Button>
    </Empty>
  );

  return (
    <Card
      title={t('title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ pool: null })} data-testid="pool-add">
          {t('add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
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
        <Select
          allowClear
          style={{ width: 150 }}
          placeholder={t('filters.status')}
          aria-label={t('filters.status')}
          value={filters.status}
          onChange={(value?: TPool['status']) => applyFilters({ ...filters, status: value })}
          options={POOL_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void list.refetch()}>
          {t('refresh')}
        </Button>
      </Flex>
      <PoolsTable
        pools={list.data?.records ?? []}
        isLoading={list.isFetching}
        emptyText={emptyText}
        pagination={paging.pagination(list.data?.total)}
        actions={{
          onEdit: (pool) => setForm({ pool }),
          onCheck: setChecking,
          onAreas: setAreas,
          onToggle: (pool) => void changeStatus(pool, pool.status === 'enabled' ? 'paused' : 'enabled'),
          onDelete: askDelete,
          togglingId: setStatus.isPending ? (setStatus.variables?.id ?? null) : null,
        }}
      />
      <PoolFormDrawer pool={form?.pool ?? null} isOpen={form !== null} onClose={() => setForm(null)} />
      <CheckModal pool={checking} onClose={() => setChecking(null)} />
      <AreaListsDrawer pool={areas} onClose={() => setAreas(null)} />
    </Card>
  );
}
