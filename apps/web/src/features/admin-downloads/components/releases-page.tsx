import { useState } from 'react';
import { Alert, Button, Card, Empty, Flex, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TSoftwareRelease, TSoftwareReleaseFile } from '@proxy/contract';
import { formatFileSize } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { useDeleteRelease, useReleases, useRemoveReleaseFile } from '../api/releases';
import { AddFileModal } from './add-file-modal';
import { ReleaseFormDrawer } from './release-form-drawer';

function FilesTable(props: { release: TSoftwareRelease }) {
  const { release } = props;
  const { t } = useTranslation('admin-downloads');
  const remove = useRemoveReleaseFile();
  const askRemove = (file: TSoftwareReleaseFile) =>
    confirmAction({
      title: t('removeFileConfirm', { platform: t(`platforms.${file.platform}`), version: release.version }),
      content: t('removeFileConfirmText'),
      isDanger: true,
      onOk: async () => {
        await remove.mutateAsync({ id: release.id, file_id: file.id });
        showSuccess(t('fileRemoved'));
      },
    });
  return (
    <Table<TSoftwareReleaseFile>
      rowKey="id"
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={release.files}
      columns={[
        {
          title: t('file.platform'),
          key: 'platform',
          render: (_, file) => (
            <Space size={4}>
              {t(`platforms.${file.platform}`)}
              {file.arch ? <Tag>{file.arch}</Tag> : null}
            </Space>
          ),
        },
        {
          title: t('file.url'),
          dataIndex: 'url',
          render: (url: string) => (
            <Typography.Link href={url} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
              {url}
            </Typography.Link>
          ),
        },
        { title: t('file.size'), key: 'size', render: (_, file) => formatFileSize(file.size) },
        {
          title: t('file.sha256'),
          dataIndex: 'sha256',
          render: (sha: string) => (
            <Typography.Text style={{ fontFamily: 'monospace', fontSize: 12 }} copyable={{ text: sha }}>
              {`${sha.slice(0, 12)}…`}
            </Typography.Text>
          ),
        },
        {
          title: t('actions'),
          key: 'actions',
          render: (_, file) => (
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={release.files.length === 1}
              title={release.files.length === 1 ? t('lastFile') : undefined}
              onClick={() => askRemove(file)}
              data-testid={`remove-file-${file.id}`}
            >
              {t('removeFile')}
            </Button>
          ),
        },
      ]}
    />
  );
}

/**
 * /admin/downloads: the desktop software releases customers who topped up download (docs/operator-guide.md,
 * "Software downloads"). Publishing checks each file at its link (size and SHA-256) before anything is stored.
 */
export default function ReleasesPage() {
  const { t } = useTranslation('admin-downloads');
  const releases = useReleases();
  const remove = useDeleteRelease();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const [adding, setAdding] = useState<TSoftwareRelease | null>(null);

  const askDelete = (release: TSoftwareRelease) =>
    confirmAction({
      title: t('deleteConfirm', { version: release.version }),
      content: t('deleteConfirmText'),
      isDanger: true,
      okText: t('delete'),
      onOk: async () => {
        await remove.mutateAsync(release.id);
        showSuccess(t('deleted', { version: release.version }));
      },
    });

  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon title={t('intro')} />
      <Flex justify="end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setIsFormOpen(true)} data-testid="release-new">
          {t('publish')}
        </Button>
      </Flex>
      {releases.isPending ? (
        <Skeleton active />
      ) : (releases.data ?? []).length === 0 ? (
        <Empty description={<span data-testid="releases-empty">{t('empty')}</span>} />
      ) : (
        releases.data!.map((release, index) => (
          <Card
            key={release.id}
            data-testid={`admin-release-${release.version}`}
            title={
              <Space wrap>
                {release.version}
                {index === 0 ? <Tag color="blue">{t('latest')}</Tag> : null}
                <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
                  {t('released', { date: release.released_on })}
                </Typography.Text>
              </Space>
            }
            extra={
              <Space wrap size={8}>
                <Button size="small" icon={<PlusOutlined />} onClick={() => setAdding(release)}>
                  {t('addFile')}
                </Button>
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => askDelete(release)}
                  data-testid={`delete-release-${release.version}`}
                >
                  {t('delete')}
                </Button>
              </Space>
            }
          >
            {release.notes_zh || release.notes_en ? (
              <Flex vertical gap={4} style={{ marginBottom: 12 }}>
                {release.notes_zh ? (
                  <Typography.Paragraph style={{ whiteSpace: 'pre-line', margin: 0 }}>
                    <Typography.Text type="secondary">{t('notesZh')}: </Typography.Text>
                    {release.notes_zh}
                  </Typography.Paragraph>
                ) : null}
                {release.notes_en ? (
                  <Typography.Paragraph style={{ whiteSpace: 'pre-line', margin: 0 }}>
                    <Typography.Text type="secondary">{t('notesEn')}: </Typography.Text>
                    {release.notes_en}
                  </Typography.Paragraph>
                ) : null}
              </Flex>
            ) : null}
            <FilesTable release={release} />
          </Card>
        ))
      )}
      <ReleaseFormDrawer isOpen={isFormOpen} onClose={() => setIsFormOpen(false)} />
      <AddFileModal release={adding} onClose={() => setAdding(null)} />
    </Flex>
  );
}
