import { useState } from 'react';
import { Alert, Button, Card, Col, Descriptions, Flex, Row, Select, Skeleton, Steps, Tag, Typography } from 'antd';
import { CheckCircleOutlined, DownloadOutlined, QuestionCircleOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { API_PREFIX, ROUTES, type TProxyToken } from '@proxy/contract';
import { PluginSetupResult } from '../../../entities/plugin/plugin-setup-result';
import { usePluginInfo } from '../../../entities/plugin/plugin-info';
import { usePluginSetup } from '../../../entities/plugin/use-plugin-setup';
import { formatFileSize } from '../../../lib/format';
import { useInstalledPlugin } from '../api/installed-plugin';
import { usePluginProxies } from '../api/plugin-proxies';
import { InstallPicture, type TInstallSpot } from './install-picture';

/**
 * /tools/plugin: what the browser plugin does, its download (the current
 * build, set to this console), whether this browser has it, sending a proxy to
 * it, and how to install it in Chrome, Edge or Chromium.
 */
export default function PluginPage() {
  const { t } = useTranslation('plugin');
  const info = usePluginInfo();
  const installed = useInstalledPlugin(info.data?.extension_id);
  const proxies = usePluginProxies();
  const { setup, start } = usePluginSetup();
  const [chosen, setChosen] = useState<TProxyToken | null>(null);
  const downloadUrl = API_PREFIX + ROUTES.pluginDownload.path;

  const renderStatus = () => {
    if (info.isPending || installed.isFetching) {
      return (
        <Typography.Text type="secondary" data-testid="plugin-status" data-status="checking">
          {t('status.checking')}
        </Typography.Text>
      );
    }
    const hello = installed.data;
    if (!hello) {
      return (
        <Tag icon={<QuestionCircleOutlined />} color="default" data-testid="plugin-status" data-status="missing">
          {t('status.missing')}
        </Tag>
      );
    }
    const latest = info.data?.version;
    return (
      <Flex vertical gap={4} data-testid="plugin-status" data-status="installed">
        <Tag icon={<CheckCircleOutlined />} color="success" style={{ width: 'fit-content' }}>
          {t('status.installed', { version: hello.version })}
        </Tag>
        {latest && latest !== hello.version ? (
          <Typography.Text type="warning">{t('status.outdated', { version: hello.version, latest })}</Typography.Text>
        ) : null}
        <Typography.Text type="secondary">
          {hello.active_token_id ? t('status.active', { id: hello.active_token_id }) : t('status.inactive')}
        </Typography.Text>
      </Flex>
    );
  };

  const steps: { key: string; spot?: TInstallSpot; label: string }[] = [
    { key: 'unzip', label: t('install.unzip') },
    { key: 'open', spot: 'address', label: t('install.open') },
    { key: 'developer', spot: 'developer', label: t('install.developer') },
    { key: 'load', spot: 'load', label: t('install.load') },
    { key: 'pin', spot: 'pin', label: t('install.pin') },
  ];

  return (
    <Flex vertical gap={16}>
      <Card title={t('heading')}>
        <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {(['oneClick', 'popup', 'private', 'socks5'] as const).map((key) => (
            <li key={key}>
              <Typography.Text>{t(`features.${key}`)}</Typography.Text>
            </li>
          ))}
        </ul>
      </Card>

      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('download.title')} style={{ height: '100%' }}>
            {info.isPending ? (
              <Skeleton active paragraph={{ rows: 2 }} />
            ) : info.data?.available ? (
              <Flex vertical gap={8}>
                <Button
                  type="primary"
                  icon={<DownloadOutlined />}
                  href={downloadUrl}
                  download={info.data.file_name}
                  style={{ width: 'fit-content' }}
                >
                  {t('download.button')}
                </Button>
                <Typography.Text type="secondary">
                  {t('download.meta', { version: info.data.version, size: formatFileSize(info.data.size ?? 0) })}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {t('download.forThisConsole', { origin: window.location.origin })}
                </Typography.Text>
              </Flex>
            ) : (
              <Alert type="warning" showIcon title={t('download.unavailable')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card
            title={t('status.title')}
            extra={
              <Button
                size="small"
                onClick={() => void installed.refetch()}
                disabled={!info.data?.extension_id}
                loading={installed.isFetching}
              >
                {t('status.recheck')}
              </Button>
            }
            style={{ height: '100%' }}
          >
            {renderStatus()}
          </Card>
        </Col>
      </Row>

      <Card title={t('use.title')}>
        <Flex vertical gap={12}>
          {proxies.data && proxies.data.length === 0 ? (
            <Typography.Text type="secondary">{t('use.none')}</Typography.Text>
          ) : null}
          <Flex gap={8} wrap>
            <Select
              aria-label={t('use.label')}
              placeholder={t('use.placeholder')}
              loading={proxies.isPending}
              style={{ minWidth: 'min(360px, 100%)' }}
              value={chosen?.token_id}
              onChange={(id: number) => setChosen(proxies.data?.find((token) => token.token_id === id) ?? null)}
              options={(proxies.data ?? []).map((token) => ({
                value: token.token_id,
                label: `#${token.token_id} ${token.username}${token.remark ? ` · ${token.remark}` : ''} (${token.host}:${token.port})`,
              }))}
            />
            <Button
              type="primary"
              icon={<SendOutlined />}
              disabled={!chosen}
              loading={setup.state === 'configuring'}
              onClick={() => chosen && void start(chosen).then(() => installed.refetch())}
            >
              {t('use.send')}
            </Button>
          </Flex>
          <PluginSetupResult setup={setup} token={chosen} />
        </Flex>
      </Card>

      <Card title={t('install.title')}>
        <Steps
          orientation="vertical"
          items={steps.map((step) => ({
            key: step.key,
            title: step.label,
            status: 'process' as const,
            content: step.spot ? <InstallPicture spot={step.spot} label={step.label} /> : null,
          }))}
        />
        <Descriptions
          size="small"
          column={1}
          style={{ marginTop: 8 }}
          items={[
            {
              key: 'id',
              label: 'ID',
              children: <Typography.Text code>{info.data?.extension_id ?? '-'}</Typography.Text>,
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
