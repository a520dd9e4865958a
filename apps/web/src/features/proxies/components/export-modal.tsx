import { useState } from 'react';
import { Alert, Form, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TExportLineFormat, TProxyList, TProxyNetwork } from '@proxy/contract';
import type { TTokenListFilters } from '../../../entities/proxies/token-list';
import { showSuccess } from '../../../lib/message';
import { useExportTokens, type TExportFileFormat } from '../api/export-tokens';

/** Line formats the dialog offers: two without a scheme, and the proxy URL in each proxy's own protocol. */
type TLineChoice = 'hpup' | 'upahp' | 'url';

const PLAIN_SAMPLES = { hpup: 'host:port:user:pass', upahp: 'user:pass@host:port' } as const;

/**
 * The URL format for the proxies exported: the one scheme when they all share
 * a protocol, else both (the server writes each line in its proxy's protocol;
 * the gateway refuses any other, so a socks5:// line for an HTTP proxy never works).
 */
function urlFormatOf(networks: TProxyNetwork[]): { line: TExportLineFormat; sample: string } {
  const kinds = new Set(networks);
  if (kinds.size === 1 && kinds.has('SOCKS5')) return { line: 'socks5', sample: 'socks5://user:pass@host:port' };
  if (kinds.size === 1 && kinds.has('HTTP')) return { line: 'http', sample: 'http://user:pass@host:port' };
  return { line: 'http', sample: 'http:// | socks5://user:pass@host:port' };
}

/**
 * Export as a file (GET /token/export, a blob): the selected proxies, or every
 * proxy of the list matching the current filters; txt or csv and a line format.
 * `networks` are the protocols of the selected proxies (none: the filter's
 * proxies, whose protocols are not all known here).
 */
export function ExportModal(props: {
  isOpen: boolean;
  list: TProxyList;
  tokenIds: number[];
  networks: TProxyNetwork[];
  filters: TTokenListFilters;
  onClose: () => void;
}) {
  const { t } = useTranslation('proxies');
  const [format, setFormat] = useState<TExportFileFormat>('txt');
  const [choice, setChoice] = useState<TLineChoice>('hpup');
  const exporter = useExportTokens();
  const url = urlFormatOf(props.networks);

  const handleOk = () =>
    exporter.mutate(
      {
        list: props.list,
        tokenIds: props.tokenIds,
        filters: props.filters,
        format,
        line: choice === 'url' ? url.line : choice,
      },
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
        title={
          props.tokenIds.length > 0
            ? t('export.scopeSelected', { count: props.tokenIds.length })
            : t('export.scopeFilter')
        }
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
        <Form.Item label={t('export.line')} extra={choice === 'url' ? t('export.urlHint') : undefined}>
          <Radio.Group
            value={choice}
            onChange={(e) => setChoice(e.target.value as TLineChoice)}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={[
              { value: 'hpup', label: <code>{PLAIN_SAMPLES.hpup}</code> },
              { value: 'upahp', label: <code>{PLAIN_SAMPLES.upahp}</code> },
              {
                value: 'url',
                label: (
                  <span>
                    <code>{url.sample}</code> <Typography.Text type="secondary">{t('export.urlLabel')}</Typography.Text>
                  </span>
                ),
              },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
