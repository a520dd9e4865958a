import { useRef } from 'react';
import { Button, Descriptions, Drawer, Flex, Progress, QRCode, Tag, Typography } from 'antd';
import { DownloadOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import { TokenTargetRulesSection } from '../../../entities/target-rules/target-rules-panels';
import { formatBytesTrimmed, formatDateTimeSeconds } from '../../../lib/format';
import { showError } from '../../../lib/message';
import { downloadQrPng } from '../../../lib/qr-download';
import { formatAllowance, formatArea, usagePercent } from '../utils/format';
import { CopyText, SecretText } from './copy-field';
import { AutoRenewUndo } from './auto-renew-undo';
import { ProxyDomainsSection } from './proxy-domains';
import { StatusTag } from './status-tag';
import { ProxySessions } from './proxy-sessions';
import { UnchargedNote } from './uncharged-note';

/** Every field of a proxy, its URL and a QR code of the URL that can be downloaded. */
export function DetailDrawer(props: { token: TProxyToken | null; onClose: () => void }) {
  const { t } = useTranslation('proxies');
  const qrBox = useRef<HTMLDivElement>(null);
  const { token } = props;

  const handleDownload = () => {
    if (!token) return;
    try {
      downloadQrPng(qrBox.current, `proxy-${token.token_id}-qr.png`);
    } catch {
      showError(t('errors.qrFailed'));
    }
  };

  const percent = token ? usagePercent(token.usage) : null;
  return (
    <Drawer
      open={token !== null}
      onClose={props.onClose}
      title={token ? t('detail.title', { id: token.token_id }) : ''}
      size={560}
    >
      {token && (
        <Flex vertical gap={16}>
          <Descriptions
            size="small"
            column={1}
            bordered
            styles={{ label: { width: 130, whiteSpace: 'nowrap' } }}
            items={[
              { key: 'id', label: t('fields.tokenId'), children: token.token_id },
              { key: 'remark', label: t('fields.remark'), children: token.remark || '-' },
              {
                key: 'product',
                label: t('fields.product'),
                children: (
                  <Flex gap={4} wrap>
                    <Tag>{t(`category.${token.category}`)}</Tag>
                    <Tag>{t(`product.${token.product}`)}</Tag>
                    <Tag color="blue">{t(`billing.${token.type}`)}</Tag>
                  </Flex>
                ),
              },
              { key: 'network', label: t('fields.network'), children: token.network },
              { key: 'area', label: t('fields.area'), children: formatArea(token.area) },
              {
                key: 'usage',
                label: t('fields.usage'),
                children: (
                  <Flex vertical>
                    {token.usage.limit_bytes === null ? (
                      formatBytesTrimmed(token.usage.used_bytes)
                    ) : (
                      <div>
                        {t('usage.ofLimit', {
                          used: formatBytesTrimmed(token.usage.used_bytes),
                          limit: formatAllowance(token.usage.limit_bytes),
                        })}
                        <Progress percent={percent ?? 0} size="small" />
                      </div>
                    )}
                    <UnchargedNote token={token} />
                  </Flex>
                ),
              },
              {
                key: 'usageLog',
                label: t('detail.usageLog'),
                children: (
                  <Link
                    to={`/proxy/usage-log/${token.token_id}`}
                    onClick={props.onClose}
                    data-testid="detail-usage-log"
                  >
                    <UnorderedListOutlined /> {t('detail.usageLogLink')}
                  </Link>
                ),
              },
              { key: 'created', label: t('fields.createdAt'), children: formatDateTimeSeconds(token.created_at) },
              { key: 'expires', label: t('fields.expiresAt'), children: formatDateTimeSeconds(token.expires_at) },
              { key: 'status', label: t('fields.status'), children: <StatusTag status={token.status} /> },
              ...(token.type === 'ip'
                ? [
                    {
                      key: 'autoRenew',
                      label: t('fields.autoRenew'),
                      children: token.auto_renew ? t('detail.on') : t('detail.off'),
                    },
                  ]
                : []),
              { key: 'host', label: t('fields.host'), children: <CopyText text={token.host} /> },
              { key: 'port', label: t('fields.port'), children: <CopyText text={String(token.port)} /> },
              { key: 'username', label: t('fields.username'), children: <CopyText text={token.username} /> },
              {
                key: 'password',
                label: t('fields.password'),
                children: <SecretText secret={token.password} label={token.username} />,
              },
              {
                key: 'url',
                label: t('fields.proxyUrl'),
                children: <CopyText text={token.proxy_url} testId="detail-proxy-url" />,
              },
            ]}
          />
          {token.type === 'ip' && <AutoRenewUndo token={token} />}
          <Flex vertical align="center" gap={8}>
            <Typography.Text strong>{t('detail.qrTitle')}</Typography.Text>
            <div ref={qrBox} data-testid="qr-code">
              <QRCode
                value={token.proxy_url}
                aria-label={t('detail.qrTitle')}
                type="canvas"
                size={180}
                bgColor="#ffffff"
                color="#000000"
                errorLevel="M"
              />
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('detail.qrHint')}
            </Typography.Text>
            <Button icon={<DownloadOutlined />} onClick={handleDownload}>
              {t('detail.qrDownload')}
            </Button>
          </Flex>
          <ProxySessions key={`sessions-${token.token_id}`} token={token} />
          <TokenTargetRulesSection key={token.token_id} tokenId={token.token_id} />
          <ProxyDomainsSection key={`domains-${token.token_id}`} tokenId={token.token_id} />
        </Flex>
      )}
    </Drawer>
  );
}
