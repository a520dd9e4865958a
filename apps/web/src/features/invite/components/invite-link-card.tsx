import { useRef } from 'react';
import { Button, Card, Col, Flex, QRCode, Row, Statistic, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TInviteInfo, type TRebateConfig } from '@proxy/contract';
import { CopyButton } from '../../../components/copy-button';
import { showError } from '../../../lib/message';
import { downloadQrPng } from '../../../lib/qr-download';

/** My code and link with copy buttons, a QR code of the link (PNG download), my totals and the rules in plain words. */
export function InviteLinkCard(props: { info: TInviteInfo; config: TRebateConfig | undefined }) {
  const { t } = useTranslation('invite');
  const { info, config } = props;
  const qrBox = useRef<HTMLDivElement>(null);
  const download = () => {
    try {
      downloadQrPng(qrBox.current, `invite-${info.invite_code}.png`);
    } catch {
      showError(t('errors.qrFailed'));
    }
  };
  return (
    <Card>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={16}>
          <Flex vertical gap={16}>
            <div>
              <Typography.Text type="secondary">{t('code')}</Typography.Text>
              <Flex align="center" gap={8} wrap>
                <Typography.Title level={3} style={{ margin: 0 }} data-testid="invite-code">
                  {info.invite_code}
                </Typography.Title>
                <CopyButton text={info.invite_code} successMessage={t('copied.code')}>
                  {t('copyCode')}
                </CopyButton>
              </Flex>
            </div>
            <div>
              <Typography.Text type="secondary">{t('link')}</Typography.Text>
              <Flex align="center" gap={8} wrap>
                <Typography.Text code data-testid="invite-link">
                  {info.invite_link}
                </Typography.Text>
                <CopyButton text={info.invite_link} successMessage={t('copied.link')}>
                  {t('copyLink')}
                </CopyButton>
              </Flex>
            </div>
            {info.inviter_name && (
              <Typography.Text type="secondary">{t('invitedBy', { name: info.inviter_name })}</Typography.Text>
            )}
            <Row gutter={16}>
              <Col span={12} md={6}>
                <Statistic title={t('stats.invited')} value={info.invited_count} />
              </Col>
              <Col span={12} md={6}>
                <Statistic
                  title={t('stats.totalRebate')}
                  value={formatYuan(info.total_rebate)}
                  data-testid="total-rebate"
                />
              </Col>
              <Col span={12} md={6}>
                <Statistic title={t('stats.pendingRebate')} value={formatYuan(info.pending_rebate)} />
              </Col>
              <Col span={12} md={6}>
                <Statistic title={t('stats.rate')} value={`${info.rebate_rate}%`} />
              </Col>
            </Row>
            {config && (
              <Typography.Paragraph style={{ margin: 0 }} data-testid="rebate-rules">
                {t('rules', {
                  rate: config.rate,
                  min: formatYuan(config.min_charge),
                  max: formatYuan(config.max_rebate),
                })}
              </Typography.Paragraph>
            )}
          </Flex>
        </Col>
        <Col xs={24} lg={8}>
          <Flex vertical align="center" gap={8}>
            <div ref={qrBox} data-testid="invite-qr">
              <QRCode
                value={info.invite_link}
                aria-label={t('qrLabel')}
                type="canvas"
                size={180}
                bgColor="#ffffff"
                color="#000000"
                errorLevel="M"
              />
            </div>
            <Button icon={<DownloadOutlined />} onClick={download}>
              {t('qrDownload')}
            </Button>
          </Flex>
        </Col>
      </Row>
    </Card>
  );
}
