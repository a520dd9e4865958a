import { Button, Card, Empty, Flex, Input, Space, Tag } from 'antd';
import { DownloadOutlined, FileAddOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import type { TEndpointPreviewState } from '../hooks/use-endpoint-preview';
import type { TEndpointSettingsState } from '../hooks/use-endpoint-settings';

/** The endpoint lines with copy, new session ids (sticky sessions), "Generate file" and the stored file's download. */
export function PreviewCard({
  settings,
  preview,
}: {
  settings: TEndpointSettingsState;
  preview: TEndpointPreviewState;
}) {
  const { t } = useTranslation('endpoint-generator');
  const { lines, file } = preview;
  const text = lines.join('\n');
  const hasStickySessions = settings.values?.session === 'sticky' && !settings.isPinned;

  return (
    <Card
      title={
        <Space>
          {t('preview.title')}
          {lines.length > 0 && <Tag>{t('preview.lines', { count: lines.length })}</Tag>}
          {file && <Tag color="green">{t('preview.fromFile', { id: file.id })}</Tag>}
        </Space>
      }
      style={{ height: '100%' }}
    >
      {lines.length === 0 ? (
        <Empty description={t('preview.empty')} />
      ) : (
        <Input.TextArea
          readOnly
          value={text}
          aria-label={t('preview.title')}
          data-testid="endpoint-preview"
          rows={Math.min(18, Math.max(8, lines.length))}
          spellCheck={false}
          wrap="off"
          style={{ fontFamily: 'monospace', fontSize: 12.5 }}
        />
      )}
      <Flex gap={8} wrap style={{ marginTop: 16 }}>
        <CopyButton
          text={text}
          successMessage={t('preview.copied', { count: lines.length })}
          disabled={lines.length === 0}
        >
          {t('preview.copy')}
        </CopyButton>
        {hasStickySessions && (
          <Button icon={<SyncOutlined />} onClick={preview.renewSessions} disabled={!settings.token || file !== null}>
            {t('preview.newSessions')}
          </Button>
        )}
        <Button
          type="primary"
          icon={<FileAddOutlined />}
          onClick={() => void preview.generate()}
          loading={preview.isGenerating}
          disabled={!settings.token}
        >
          {t('preview.generate')}
        </Button>
        {file && (
          <Button icon={<DownloadOutlined />} onClick={() => void preview.download()} loading={preview.isDownloading}>
            {t('preview.download')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
