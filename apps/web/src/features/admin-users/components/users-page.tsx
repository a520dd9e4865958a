import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatYuan, type TAdminUser } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePaging } from '../../../lib/use-paging';
import { useAdminUsers, type TUserFilters } from '../api/admin-users';
import { UserStatusTag } from './user-status-tag';

/** /admin/users: every account, newest first, found by e-mail, name, id or invite code, and by status. */
export default function UsersPage() {
  const { t } = useTranslation('admin-users');
  const paging = usePaging(20);
  const [filters, setFilters] = useState<TUserFilters>({});
  const list = useAdminUsers({ page: paging.page, pageSize: paging.pageSize, filters });
  const applyFilters = (next: TUserFilters) => {
    setFilters(next);
    paging.toFirstPage();
  };

  const columns: TableColumnsType<TAdminUser> = [
    { title: t('fields.id'), dataIndex: 'user_id', width: 80 },
    {
      title: t('fields.account'),
      dataIndex: 'email',
      render: (_, user) => (
        <Flex vertical>
          <Link to={`/admin/users/${user.user_id}`} data-testid={`admin-user-${user.user_id}`}>
            {user.email}
          </Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {user.username}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 150,
      render: (_, user) => (
        <Flex gap={4} wrap>
          <UserStatusTag status={user.status} />
          {user.is_admin && <Tag color="purple">{t('operator')}</Tag>}
        </Flex>
      ),
    },
    { title: t('fields.balance'), dataIndex: 'balance', align: 'right', render: (v: number) => formatYuan(v) },
    { title: t('fields.frozen'), dataIndex: 'frozen_balance', align: 'right', render: (v: number) => formatYuan(v) },
    {
      title: t('fields.totalRecharge'),
      dataIndex: 'total_balance',
      align: 'right',
      render: (v: number) => formatYuan(v),
    },
    { title: t('fields.inviteCode'), dataIndex: 'invite_code', width: 120 },
    { title: t('fields.createdAt'), dataIndex: 'created_at', width: 170, render: formatDateTimeSeconds },
    {
      title: t('fields.lastLogin'),
      dataIndex: 'last_login_at',
      width: 170,
      render: formatDateTimeSeconds,
    },
  ];

  const isFiltered = filters.keyword !== undefined || filters.status !== undefined;
  const emptyText = list.isError ? (
    <Empty description={t('errors.list')}>
      <Button onClick={() => void list.refetch()}>{t('retry')}</Button>
    </Empty>
  ) : (
    <Empty description={isFiltered ? t('emptyFiltered') : t('empty')} />
  );

  return (
    <Card
      title={t('title')}
      extra={
        <Button icon={<ReloadOutlined />} loading={list.isFetching} onClick={() => void list.refetch()}>
          {t('refresh')}
        </Button>
      }
    >
      <Flex gap={8} wrap style={{ marginBottom: 16 }} role="search" aria-label={t('filters.label')}>
        <Input.Search
          allowClear
          style={{ maxWidth: 360 }}
          placeholder={t('filters.keyword')}
          aria-label={t('filters.keyword')}
          enterButton={t('filters.search')}
          maxLength={100}
          onSearch={(value) => applyFilters({ ...filters, keyword: value.trim() || undefined })}
        />
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('filters.status')}
          aria-label={t('filters.status')}
          value={filters.status}
          onChange={(status?: 'active' | 'disabled') => applyFilters({ ...filters, status })}
          options={[
            { value: 'active', label: t('status.active') },
            { value: 'disabled', label: t('status.disabled') },
          ]}
        />
      </Flex>
      <Table<TAdminUser>
        rowKey="user_id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        locale={{ emptyText }}
        scroll={{ x: 1200 }}
        pagination={paging.pagination(list.data?.total)}
      />
    </Card>
  );
}
