import { Alert, Descriptions, Flex, QRCode, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TCryptoPayment } from '@proxy/contract';

/**
 * What a USDT order needs the customer to do: send exactly this amount of
 * USDT on this network to this address before the countdown ends. The exact
 * amount is what matches the transfer to the order, so it is shown large and
 * copyable, with the address as text and as a QR code for a wallet app.
 */
export function UsdtPayment(props: { crypto: TCryptoPayment; expiresAt: string }) {
  const { t } = useTranslation('payments');
  const { crypto } = props;
  const network = t(`usdt.networks.${crypto.network}`);
  return (
    <Flex vertical gap={16} data-testid="usdt-payment">
      <Alert
        type="warning"
        showIcon
        title={t('usdt.exactly', { amount: crypto.amount, network })}
        description={t('usdt.exactlyText')}
      />
      <Flex gap={24} wrap align="center">
        <div data-testid="usdt-qr-code">
          <QRCode value={crypto.address} type="svg" size={180} bgColor="#ffffff" color="#000000" errorLevel="M" />
        </div>
        <Descriptions
          size="small"
          column={1}
          bordered
          style={{ flex: 1, minWidth: 280 }}
          styles={{ label: { width: 140, whiteSpace: 'nowrap' } }}
          items={[
            {
              key: 'amount',
              label: t('usdt.amount'),
              children: (
                <Typography.Text
                  strong
                  copyable={{ text: crypto.amount }}
                  style={{ fontSize: 20 }}
                  data-testid="usdt-amount"
                >
                  {crypto.amount} USDT
                </Typography.Text>
              ),
            },
            {
              key: 'network',
              label: t('usdt.network'),
              children: (
                <Tag color={crypto.network === 'trc20' ? 'red' : 'blue'} data-testid="usdt-network">
                  {network}
                </Tag>
              ),
            },
            {
              key: 'address',
              label: t('usdt.address'),
              children: (
                <Typography.Text copyable code style={{ wordBreak: 'break-all' }} data-testid="usdt-address">
                  {crypto.address}
                </Typography.Text>
              ),
            },
            { key: 'rate', label: t('usdt.rate'), children: t('usdt.rateValue', { rate: crypto.rate }) },
            {
              key: 'left',
              label: t('usdt.timeLeft'),
              children: (
                <span data-testid="usdt-countdown">
                  <Statistic.Timer
                    type="countdown"
                    value={Date.parse(props.expiresAt)}
                    format="HH:mm:ss"
                    styles={{ content: { fontSize: 18 } }}
                  />
                </span>
              ),
            },
          ]}
        />
      </Flex>
      <Typography.Text type="secondary">{t('usdt.finality')}</Typography.Text>
    </Flex>
  );
}
