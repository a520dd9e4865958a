import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Skeleton, Tabs } from 'antd';
import { ApiOutlined, EnvironmentOutlined, KeyOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../entities/users/user-info';
import { useExampleValues } from '../api/example-values';
import { useOpenApiDocument } from '../api/openapi-document';
import { isAreaOperation, listCustomerOperations } from '../utils/openapi';
import { CurrentTokenTab } from './current-token-tab';
import { OperationsTab } from './operations-tab';
import { WebhooksTab } from './webhooks-tab';

/** Origin the examples call: the console's own (the API is served beside it). */
function currentOrigin(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}

/**
 * /api-docs: the spec's three tabs. "Current token" holds the personal API
 * key; "Proxy API" and "Area API" are generated from the server's OpenAPI
 * document (the /api/v1 customer calls), with curl examples that use this
 * console's origin and the user's key.
 */
export default function ApiDocsPage() {
  const { t } = useTranslation('api-docs');
  const { data: user } = useUserInfo();
  const doc = useOpenApiDocument();
  const values = useExampleValues();
  const [isKeyRevealed, setIsKeyRevealed] = useState(false);
  const [tab, setTab] = useState(() =>
    typeof window !== 'undefined' && window.location.hash === '#webhooks' ? 'webhooks' : 'token',
  );
  const origin = currentOrigin();

  const operations = useMemo(() => (doc.data ? listCustomerOperations(doc.data) : []), [doc.data]);
  const shared = { origin, apiKey: user?.token ?? '', isKeyRevealed, values };

  const docsBody = (children: ReactNode) => {
    if (doc.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
    if (doc.isError) {
      return (
        <Alert
          type="error"
          showIcon
          title={t('docs.loadFailed')}
          action={
            <Button size="small" onClick={() => void doc.refetch()}>
              {t('docs.retry')}
            </Button>
          }
        />
      );
    }
    return children;
  };

  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'token',
            label: t('tabs.token'),
            icon: <KeyOutlined />,
            children: (
              <CurrentTokenTab
                apiKey={user?.token}
                isRevealed={isKeyRevealed}
                onToggleReveal={() => setIsKeyRevealed((v) => !v)}
                origin={origin}
              />
            ),
          },
          {
            key: 'proxy',
            label: t('tabs.proxy'),
            icon: <ApiOutlined />,
            children: docsBody(
              <OperationsTab
                intro={t('docs.proxyIntro')}
                operations={operations.filter((op) => !isAreaOperation(op))}
                {...shared}
              />,
            ),
          },
          {
            key: 'area',
            label: t('tabs.area'),
            icon: <EnvironmentOutlined />,
            children: docsBody(
              <OperationsTab intro={t('docs.areaIntro')} operations={operations.filter(isAreaOperation)} {...shared} />,
            ),
          },
          { key: 'webhooks', label: t('tabs.webhooks'), icon: <SendOutlined />, children: <WebhooksTab /> },
        ]}
      />
    </Card>
  );
}
