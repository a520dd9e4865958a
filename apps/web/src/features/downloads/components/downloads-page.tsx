import { Alert, Button, Card, Empty, Flex, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { AppleOutlined, DownloadOutlined, LinuxOutlined, WindowsOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ERRORS, type TSoftwareFile, type TSoftwarePlatform } from '@proxy/contract';
import { CopyButton } from '../../../components/copy-button';
import { ApiError } from '../../../lib/api-client';
import { formatFileSize } from '../../../lib/format';
import { useDownloadSoftware } from '../api/software-link';
import { useSoftwareList } from '../api/software-list';
import DownloadsRefusal from './downloads-refusal';

const PLATFORM_ICONS: Record<TSoftwarePlatform, ReactNode> = {
  windows: <WindowsOutlined />,
  macos: <AppleOutlined />,
  linux: <LinuxOutlined />,
};

function FilesTable(props: { files: TSoftwareFile[] }) {
  const { t } = useTranslation('downloads');
  const download = useDownloadSoftware();
  return (
    <Table<TSoftwareFile>
      rowKey={(file) => `${file.platform}/${file.arch ?? ''}/${file.file}`}
      scroll={{ x: 'max-content' }}
      size="middle"
      pagination={false}
      dataSource={props.files}
      columns={[
        {
          title: t('columns.platform'),
          key: 'platform',
          render: (_, file) => (
            <Space>
              {PLATFORM_ICONS[file.platform]}
              {t(`platforms.${file.platform}`)}
              {file.arch ? <Tag>{file.arch}</Tag> : null}
            </Space>
          ),
        },
        {
          title: t('columns.file'),
          dataIndex: 'file',
          render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
        },
        {
          title: t('columns.size'),
          key: 'size',
          render: (_, file) => (file.size === null ? '—' : formatFileSize(file.size)),
        },
        {
          title: t('columns.sha256'),
          key: 'sha256',
          render: (_, file) =>
            file.sha256 ? (
              <Space size={4}>
                <Typography.Text
                  style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}
                  data-testid={`sha256-${file.file}`}
                >
                  {file.sha256}
                </Typography.Text>
                <CopyButton text={file.sha256} size="small" />
              </Space>
            ) : (
              '—'
            ),
        },
        {
          title: t('columns.download'),
          key: 'download',
          render: (_, file) =>
            file.url ? (
              // A published release's file: its own link, opened as it is (the API checked its size and SHA-256).
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                href={file.url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={`download-${file.file}`}
              >
                {t('download')}
              </Button>
            ) : file.is_available ? (
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                loading={download.isPending && download.variables === file.file}
                onClick={() => download.mutate(file.file)}
                data-testid={`download-${file.file}`}
              >
                {t('download')}
              </Button>
            ) : (
              <Tag color="warning">{t('unavailable')}</Tag>
            ),
        },
      ]}
    />
  );
}

/**
 * /tools/software (role "user"): the desktop software's releases with their
 * platforms, sizes, SHA-256 checksums and notes: those the operator published in the console (each file its
 * own link), else the legacy manifest's (a signed link per file).
 */
export default function DownloadsPage() {
  const { t } = useTranslation('downloads');
  const { data, error, isPending, refetch } = useSoftwareList();

  if (isPending) return <Skeleton active />;
  if (error) {
    if (error instanceof ApiError && error.code === ERRORS.SOFTWARE_ROLE_REQUIRED.code) return <DownloadsRefusal />;
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        subTitle={error instanceof ApiError ? error.msg : undefined}
        extra={<Button onClick={() => void refetch()}>{t('retry')}</Button>}
      />
    );
  }
  if (data.status === 'not_published')
    return (
      <Empty description={<span data-testid="software-empty">{t('notPublished')}</span>} style={{ marginTop: 64 }} />
    );
  if (data.status === 'invalid_manifest')
    return <Alert type="warning" showIcon message={t('invalidManifest')} data-testid="software-invalid" />;

  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('intro')}
      </Typography.Paragraph>
      {data.releases.map((release, index) => (
        <Card
          key={release.version}
          title={
            <Space>
              {`${data.name ?? t('productName')} ${release.version}`}
              {index === 0 ? <Tag color="blue">{t('latest')}</Tag> : null}
            </Space>
          }
          extra={<Typography.Text type="secondary">{t('released', { date: release.date })}</Typography.Text>}
          data-testid={`release-${release.version}`}
        >
          {release.notes ? (
            <>
              <Typography.Title level={5}>{t('notes')}</Typography.Title>
              <Typography.Paragraph style={{ whiteSpace: 'pre-line' }}>{release.notes}</Typography.Paragraph>
            </>
          ) : null}
          <FilesTable files={release.files} />
        </Card>
      ))}
    </Flex>
  );
}
