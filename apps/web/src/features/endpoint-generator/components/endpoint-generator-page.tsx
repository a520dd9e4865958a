import { Card, Col, Flex, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEndpointPreview } from '../hooks/use-endpoint-preview';
import { useEndpointSettings } from '../hooks/use-endpoint-settings';
import { GrammarCard } from './grammar-card';
import { HistoryCard } from './history-card';
import { PreviewCard } from './preview-card';
import { SettingsCard } from './settings-card';

/**
 * /proxy/endpoint-generator: endpoint lines of one of the user's proxies with
 * area, session and format options, previewed in the browser in the username
 * grammar; "Generate file" stores them on the server for download.
 */
export default function EndpointGeneratorPage() {
  const { t } = useTranslation('endpoint-generator');
  const settings = useEndpointSettings();
  const preview = useEndpointPreview(settings);

  return (
    <Flex vertical gap={16}>
      <Card title={t('title')}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('intro')}
        </Typography.Paragraph>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={11}>
          <SettingsCard settings={settings} />
        </Col>
        <Col xs={24} xl={13}>
          <PreviewCard settings={settings} preview={preview} />
        </Col>
      </Row>
      <GrammarCard />
      <HistoryCard />
    </Flex>
  );
}
