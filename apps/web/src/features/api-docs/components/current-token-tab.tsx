import { Alert, Button, Card, Descriptions, Flex, Skeleton, Typography } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined, KeyOutlined, RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { confirmAction, showSuccess } from '../../../lib/message';
import { useResetApiKey } from '../api/reset-api-key';
import { maskApiKey } from '../utils/mask-api-key';
import { CopyButton } from '../../../components/copy-button';

/** Props of the current token tab. */
export type TCurrentTokenTabProps = {
  apiKey: string | undefined;
  isRevealed: boolean;
  onToggleReveal: () => void;
  origin: string;
};

/** "Current token": the personal API key, masked, revealable, copyable and resettable; it must be kept secret. */
export function CurrentTokenTab({ apiKey, isRevealed, onToggleReveal, origin }: TCurrentTokenTabProps) {
  const { t } = useTranslation('api-docs');
  const reset = useResetApiKey();

  const handleReset = () =>
    confirmAction({
      title: t('token.resetTitle'),
      content: t('token.resetConfirm'),
      isDanger: true,
      // The OK button keeps loading until the call settles; a failure was shown by the request layer.
      onOk: () =>
        reset.mutateAsync().then(
          () => showSuccess(t('token.resetDone')),
          () => undefined,
        ),
    });

  if (apiKey === undefined)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );

  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Flex gap={8}>
            <KeyOutlined />
            {t('token.title')}
          </Flex>
        }
      >
        <Flex gap={8} align="center" wrap style={{ marginBottom: 16 }}>
          <Typography.Text
            code
            style={{ flex: 1, minWidth: 240, wordBreak: 'break-all', fontSize: 15 }}
            data-testid="api-key"
          >
            {apiKey ? (isRevealed ? apiKey : maskApiKey(apiKey)) : t('token.none')}
          </Typography.Text>
          <Button
            icon={isRevealed ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            onClick={onToggleReveal}
            disabled={!apiKey}
          >
            {isRevealed ? t('token.hide') : t('token.show')}
          </Button>
          <CopyButton text={apiKey} disabled={!apiKey} />
          <Button danger icon={<RedoOutlined />} onClick={handleReset} loading={reset.isPending}>
            {t('token.reset')}
          </Button>
        </Flex>
        <Alert type="warning" showIcon title={t('token.secret')} description={t('token.secretDetail')} />
      </Card>
      <Card title={t('usage.title')}>
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            {
              key: 'base',
              label: t('usage.baseUrl'),
              children: <Typography.Text code copyable>{`${origin}/api/v1`}</Typography.Text>,
            },
            {
              key: 'header',
              label: t('usage.header'),
              children: <Typography.Text code>X-API-Key: &lt;{t('usage.yourKey')}&gt;</Typography.Text>,
            },
            {
              key: 'query',
              label: t('usage.query'),
              children: <Typography.Text code>?key=&lt;{t('usage.yourKey')}&gt;</Typography.Text>,
            },
            { key: 'answer', label: t('usage.answer'), children: t('usage.answerText') },
          ]}
        />
      </Card>
    </Flex>
  );
}
