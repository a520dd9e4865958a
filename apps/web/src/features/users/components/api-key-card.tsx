import { useState } from 'react';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined, KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';

/** The key shown with only its ends visible. */
export function maskApiKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 4)}${'*'.repeat(Math.min(16, key.length - 8))}${key.slice(-4)}`;
}

/** The personal API key (read-only here): masked, revealable, copyable; it must be kept secret (spec section 6). */
export function ApiKeyCard({ apiKey }: { apiKey: string }) {
  const { t } = useTranslation('users');
  const [isRevealed, setIsRevealed] = useState(false);

  return (
    <Card
      title={
        <Flex gap={8}>
          <KeyOutlined />
          {t('apiKey.title')}
        </Flex>
      }
    >
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <Typography.Text code style={{ flex: 1, wordBreak: 'break-all' }} data-testid="api-key">
          {apiKey ? (isRevealed ? apiKey : maskApiKey(apiKey)) : t('apiKey.none')}
        </Typography.Text>
        <Button
          icon={isRevealed ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          onClick={() => setIsRevealed((v) => !v)}
          aria-label={isRevealed ? t('apiKey.hide') : t('apiKey.show')}
          disabled={!apiKey}
        />
        <CopyButton text={apiKey} disabled={!apiKey} />
      </Flex>
      <Alert type="warning" showIcon title={t('apiKey.secret')} />
    </Card>
  );
}
