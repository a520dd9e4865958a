import { useState } from 'react';
import { Alert, Form, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { EXPORT_LINE_FORMATS, type TExportLineFormat, type TProxyList } from '@proxy/contract';
import type { TTokenListFilters } from '../../../entities/proxies/token-list';
import { showSuccess } from '../../../lib/message';
import { useExportTokens, type TExportFileFormat } from '../api/export-tokens';

/** Sample of each line format, shown next to its choice. */
const LINE_SAMPLES: Record<TExportLineFormat, string> = {
  hpup: 'host:port:user:pass',
  upahp: 'user:pass@host:port',
  http: 'http://user:pass@host:port',
  socks5: 'socks5://user:pass@host:port',
};

/**
 * Export as a file (GET /token/export, a blob): the selected proxies, or every
 * proxy of the list matching the current filters; txt or csv and a line format.
 */
export function ExportModal(props: { isOpen: boolean; list: TProxyList; tokenIds: number[]; filters: TTokenListFilters; onClose: () => void }) {
  const { t } = useTranslation('proxies');
  const [format, setFormat] = useState<TExportFileFormat>('txt');
  const [line, setLine] = useState<TExportLineFormat>('hpup');
  const exporter = useExportTokens();

  const handleOk = () =>
    exporter.mutate(
      { list: props.list, tokenIds: props.tokenIds, filters: props.filters, format, line },
      {
        onSuccess: () => {
          showSuccess(t('export.success'));
          props.onClose();
        },
      },
    );

  return (
    <Modal
      open={props.isOpen}
      title={t('export.title')}
      okText={t('export.submit')}
      onOk={handleOk}
      okButtonProps={{ loading: exporter.isPending }}
      onCancel={props.onClose}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={props.tokenIds.length > 0 ? t('export.scopeSelected', { count: props.tokenIds.length }) : t('export.scopeFilter')}
      />
      <Form layout="vertical">
        <Form.Item label={t('export.format')}>
          <Radio.Group
            value={format}
            onChange={(e) => setFormat(e.target.value as TExportFileFormat)}
            options={[
              { value: 'txt', label: 'TXT' },
              { value: 'csv', label: 'CSV' },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('export.line')}>
          <Radio.Group
            value={line}
            onChange={(e) => setLine(e.target.value as TExportLineFormat)}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={EXPORT_LINE_FORMATS.map((f) => ({ value: f, label: <code>{LINE_SAMPLES[f]}</code> }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
