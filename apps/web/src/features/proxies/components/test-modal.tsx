import { useEffect } from 'react';
import { Alert, Button, Descriptions, Modal, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import { ApiError } from '../../../lib/api-client';
import { getLanguage } from '../../../lib/i18n';
import { useTestToken } from '../api/test-token';

/**
 * Tests a proxy through the gateway and shows the latency, the exit address
 * and its country, or the reason it was refused (in place, never a toast).
 */
export function TestModal(props: { token: TProxyToken | null; onClose: () => void }) {
  const { t } = useTranslation('proxies');
  const test = useTestToken();
  const tokenId = props.token?.token_id;
  const { mutate, reset } = test;

  useEffect(() => {
    if (tokenId === undefined) return;
    reset();
    mutate(tokenId);
  }, [tokenId, mutate, reset]);

  const lang = getLanguage();
  const data = test.data;
  const renderBody = () => {
    if (test.isPending) {
      return (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t('test.running')}
          </Typography.Paragraph>
        </div>
      );
    }
    if (test.isError) {
      const reason = test.error instanceof ApiError ? test.error.msg : '';
      return <Alert type="error" showIcon title={t('test.failed')} description={reason} data-testid="test-result" />;
    }
    if (!data) return null;
    if (!data.ok) {
      const message = data.error
        ? (lang === 'zh' ? data.error.message_zh : data.error.message_en) || data.error.message
        : '';
      return (
        <Alert
          type="error"
          showIcon
          data-testid="test-result"
          title={t('test.refused')}
          description={
            <>
              <div>{message}</div>
              {data.status_code !== null && (
                <Typography.Text type="secondary">{t('test.statusCode', { code: data.status_code })}</Typography.Text>
              )}
            </>
          }
        />
      );
    }
    const country = data.country
      ? (lang === 'zh' ? data.country.name_zh : data.country.name_en) || data.country.code.toUpperCase()
      : t('test.unknownCountry');
    return (
      <div data-testid="test-result">
        <Alert type="success" showIcon title={t('test.ok')} style={{ marginBottom: 12 }} />
        <Descriptions
          size="small"
          column={1}
          bordered
          items={[
            {
              key: 'latency',
              label: t('test.latency'),
              children: data.latency_ms === null ? '-' : t('test.ms', { ms: data.latency_ms }),
            },
            { key: 'exit', label: t('test.exitIp'), children: data.exit_ip ?? '-' },
            { key: 'country', label: t('test.country'), children: country },
            { key: 'status', label: t('test.httpStatus'), children: data.status_code ?? '-' },
          ]}
        />
      </div>
    );
  };

  return (
    <Modal
      open={props.token !== null}
      title={props.token ? t('test.title', { name: props.token.username }) : ''}
      onCancel={props.onClose}
      footer={[
        <Button
          key="again"
          disabled={test.isPending || tokenId === undefined}
          onClick={() => tokenId !== undefined && mutate(tokenId)}
        >
          {t('test.again')}
        </Button>,
        <Button key="close" type="primary" onClick={props.onClose}>
          {t('actions.close')}
        </Button>,
      ]}
    >
      {renderBody()}
    </Modal>
  );
}
