import { Card, Descriptions, Flex, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEndpointLine, formatYuan, type TBuyResult } from '@proxy/contract';
import { CopyButton } from '../../../components/copy-button';
import { formatDateTimeSeconds } from '../../../lib/format';
import { CopyText } from './copy-field';

/** The proxies a purchase created: host, port, username, password and URL, each with a copy button. */
export function PurchaseResult(props: { result: TBuyResult }) {
  const { t } = useTranslation('proxies');
  const { result } = props;
  const lines = result.tokens.map((token) => formatEndpointLine(token, 'hpup')).join('\n');
  return (
    <Flex vertical gap={12} data-testid="purchase-result">
      <Result
        status="success"
        style={{ padding: '8px 0' }}
        title={t('buy.resultTitle', { count: result.tokens.length })}
        subTitle={t('buy.resultSubtitle', { cost: formatYuan(result.cost), balance: formatYuan(result.balance) })}
        extra={<CopyButton text={lines}>{t('buy.copyAll')}</CopyButton>}
      />
      {result.tokens.map((token) => (
        <Card key={token.token_id} size="small" title={`#${token.token_id} · ${token.network}`}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'host', label: t('fields.host'), children: <CopyText text={token.host} /> },
              { key: 'port', label: t('fields.port'), children: <CopyText text={String(token.port)} /> },
              { key: 'username', label: t('fields.username'), children: <CopyText text={token.username} /> },
              { key: 'password', label: t('fields.password'), children: <CopyText text={token.password} /> },
              { key: 'url', label: t('fields.proxyUrl'), children: <CopyText text={token.proxy_url} /> },
              {
                key: 'expiry',
                label: t('fields.expiresAt'),
                children: <Typography.Text>{formatDateTimeSeconds(token.expires_at)}</Typography.Text>,
              },
            ]}
          />
        </Card>
      ))}
    </Flex>
  );
}
