import { useEffect } from 'react';
import { Alert, Button, Card, Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { IP_LIST_MAX_ENTRIES, type TIpList, type TIpListEntry } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { useIpList } from '../api/ip-list';
import { useRemoveIpEntry } from '../api/remove-ip-entry';
import { IpAddForm } from './ip-add-form';

const KIND_COLORS: Record<TIpListEntry['kind'], string> = { single: 'blue', cidr: 'purple', range: 'cyan' };
const DEFAULT_PAGE_SIZE = 10;

/** One list: its add form and a paged table of entries with delete. */
export function IpListPanel({ list }: { list: TIpList }) {
  const { t } = useTranslation('ip-lists');
  const paging = usePaging(DEFAULT_PAGE_SIZE);
  const { page, toPreviousPage } = paging;
  const query = useIpList({ list, page, pageSize: paging.pageSize });
  const remove = useRemoveIpEntry();
  const listName = t(`listName.${list}`);
  const total = query.data?.total ?? 0;
  const records = query.data?.records ?? [];

  // After deleting the last entry of the last page, show the page before it.
  useEffect(() => {
    if (query.data && query.data.records.length === 0 && page > 1) toPreviousPage();
  }, [query.data, page, toPreviousPage]);

  const handleRemove = (entry: TIpListEntry) => {
    confirmAction({
      title: t('remove.confirmTitle'),
      content: t('remove.confirmContent', { entry: entry.ip, listName }),
      isDanger: true,
      onOk: async () => {
        try {
          await remove.mutateAsync(entry.id);
          showSuccess(t('remove.success'));
        } catch {
          // the request layer has shown why
        }
      },
    });
  };

  const columns: TableColumnsType<TIpListEntry> = [
    {
      title: t('table.entry'),
      dataIndex: 'ip',
      render: (ip: string) => (
        <Typography.Text copyable style={{ fontFamily: 'monospace' }}>
          {ip}
        </Typography.Text>
      ),
    },
    {
      title: t('table.kind'),
      dataIndex: 'kind',
      width: 130,
      render: (kind: TIpListEntry['kind']) => <Tag color={KIND_COLORS[kind]}>{t(`kind.${kind}`)}</Tag>,
    },
    { title: t('table.remark'), dataIndex: 'remark', ellipsis: true, render: (remark: string) => remark || '-' },
    {
      title: t('table.createdAt'),
      dataIndex: 'created_at',
      width: 180,
      render: formatDateTimeSeconds,
    },
    {
      title: t('table.actions'),
      key: 'actions',
      width: 110,
      render: (_, entry) => (
        <Button
          type="link"
          danger
          size="small"
          icon={<DeleteOutlined />}
          loading={remove.isPending && remove.variables === entry.id}
          onClick={() => handleRemove(entry)}
          aria-label={`${t('remove.button')} ${entry.ip}`}
        >
          {t('remove.button')}
        </Button>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title={t('add.title', { listName })}
        extra={
          <Typography.Text type="secondary">{t('usage', { count: total, max: IP_LIST_MAX_ENTRIES })}</Typography.Text>
        }
      >
        <IpAddForm list={list} existingCount={total} />
      </Card>
      {query.isError && (
        <Alert
          type="error"
          showIcon
          message={t(`fetchFailed.${list}`)}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('retry')}
            </Button>
          }
        />
      )}
      <Table<TIpListEntry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={records}
        loading={query.isFetching}
        scroll={{ x: 720 }}
        locale={{ emptyText: list === 'whitelist' ? t('table.emptyWhitelist') : t('table.emptyBlacklist') }}
        pagination={paging.pagination(total, {
          showTotal: undefined,
          hideOnSinglePage: total <= DEFAULT_PAGE_SIZE && paging.pageSize === DEFAULT_PAGE_SIZE,
        })}
      />
    </Flex>
  );
}
