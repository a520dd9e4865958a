import { useState } from 'react';
import { Button, Card, Table, Tag, Typography } from 'antd';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TSpiderRecord } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';
import { usePaging } from '../../../lib/use-paging';
import { downloadSpiderFile } from '../api/download-spider-file';
import { useSpiderRecords } from '../api/spider-records';
import { LINE_FORMAT_LABELS } from '../utils/line-formats';

/** The area of a file's settings, e.g. "us / ca / losangeles". */
function areaText(params: TSpiderRecord['params']): string {
  return [params.country_id, params.state_id, params.city_id].filter(Boolean).join(' / ');
}

/** History of generated endpoint files (GET /token/spider/records) with download links. */
export function HistoryCard() {
  const { t } = useTranslation('endpoint-generator');
  const paging = usePaging();
  const [downloading, setDownloading] = useState<number | null>(null);
  const records = useSpiderRecords(paging.page, paging.pageSize);

  const handleDownload = async (record: TSpiderRecord) => {
    setDownloading(record.id);
    // A failure was shown by the request layer.
    await downloadSpiderFile(record.id, record.filename).catch(() => undefined);
    setDownloading(null);
  };

  return (
    <Card
      title={t('history.title')}
      extra={
        <Button
          type="text"
          icon={<ReloadOutlined spin={records.isFetching} />}
          onClick={() => void records.refetch()}
          aria-label={t('history.title')}
        />
      }
    >
      <Table<TSpiderRecord>
        rowKey="id"
        size="middle"
        loading={records.isPending}
        dataSource={records.data?.records ?? []}
        scroll={{ x: 860 }}
        pagination={paging.pagination(records.data?.total, {
          showSizeChanger: false,
          showTotal: undefined,
          hideOnSinglePage: true,
        })}
        columns={[
          {
            key: 'created',
            title: t('history.createdAt'),
            dataIndex: 'created_at',
            width: 170,
            render: formatDateTimeSeconds,
          },
          {
            key: 'token',
            title: t('history.token'),
            dataIndex: 'token_username',
            render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
          },
          {
            key: 'area',
            title: t('history.area'),
            render: (_, record) =>
              areaText(record.params) || <Typography.Text type="secondary">{t('history.anyArea')}</Typography.Text>,
          },
          {
            key: 'session',
            title: t('history.session'),
            render: (_, record) =>
              record.params.session === 'sticky' ? (
                <Tag color="purple">{t('history.stickyMinutes', { minutes: record.params.sesstime ?? 0 })}</Tag>
              ) : (
                <Tag color="blue">{t('form.rotating')}</Tag>
              ),
          },
          {
            key: 'format',
            title: t('history.format'),
            render: (_, record) => (
              <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
                {LINE_FORMAT_LABELS[record.params.line]}
              </Typography.Text>
            ),
          },
          { key: 'lines', title: t('history.lines'), dataIndex: 'line_count', width: 80, align: 'right' },
          {
            key: 'file',
            title: t('history.file'),
            fixed: 'right',
            render: (_, record) => (
              <Button
                type="link"
                icon={<DownloadOutlined />}
                loading={downloading === record.id}
                onClick={() => void handleDownload(record)}
                aria-label={`${t('history.download')} ${record.filename}`}
              >
                {record.filename}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
