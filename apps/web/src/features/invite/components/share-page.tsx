import { Button, Card, Col, Flex, Result, Row, Skeleton, Statistic, Typography, theme } from 'antd';
import { GlobalOutlined, SafetyCertificateOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PRODUCT_NAME, type TInviteShare } from '@proxy/contract';
import { LanguageSwitch } from '../../../components/language-switch';
import { ThemeSwitch } from '../../../components/theme-switch';
import { useIsSignedIn } from '../../../lib/session';
import { useInviteShare } from '../api/invite-share';

/** What the product is (spec section 1 claims). */
function Claims(props: { claims: TInviteShare['claims'] }) {
  const { t } = useTranslation('invite');
  return (
    <Row gutter={16} style={{ width: '100%' }}>
      <Col span={8}>
        <Statistic title={t('share.claims.ips')} value={props.claims.residential_ips} prefix={<GlobalOutlined />} />
      </Col>
      <Col span={8}>
        <Statistic
          title={t('share.claims.countries')}
          value={props.claims.countries}
          prefix={<ThunderboltOutlined />}
        />
      </Col>
      <Col span={8}>
        <Statistic
          title={t('share.claims.uptime')}
          value={props.claims.uptime}
          prefix={<SafetyCertificateOutlined />}
        />
      </Col>
    </Row>
  );
}

/** The invalid-code state (spec section 8): the server's message and direct registration when the installation allows it. */
function InvalidCode(props: { share: TInviteShare; isSignedIn: boolean }) {
  const { t } = useTranslation('invite');
  const action = props.isSignedIn ? (
    <Link to="/">
      <Button type="primary">{t('share.toConsole')}</Button>
    </Link>
  ) : props.share.invite_required ? (
    <Typography.Text type="secondary">{t('share.codeNeeded')}</Typography.Text>
  ) : (
    <Link to="/register">
      <Button type="primary">{t('share.registerDirectly')}</Button>
    </Link>
  );
  return <Result status="warning" title={t('share.invalidTitle')} subTitle={props.share.message} extra={action} />;
}

/** /invite/:invite_code, public: who invites you, what the product is, and registration with the code filled in and locked. */
export default function SharePage() {
  const { t } = useTranslation('invite');
  const { token } = theme.useToken();
  const code = useParams().invite_code ?? '';
  const isSignedIn = useIsSignedIn();
  const share = useInviteShare(code);
  const data = share.data;
  return (
    <Flex vertical align="center" style={{ minHeight: '100vh', background: token.colorBgLayout, padding: 24 }}>
      <Flex justify="flex-end" gap={8} style={{ width: '100%', maxWidth: 640 }}>
        <LanguageSwitch />
        <ThemeSwitch />
      </Flex>
      <Card style={{ width: '100%', maxWidth: 640, marginTop: 48 }}>
        {!data ? (
          share.isError ? (
            <Result
              status="error"
              title={t('errors.fetchShare')}
              extra={<Button onClick={() => void share.refetch()}>{t('retry')}</Button>}
            />
          ) : (
            <Skeleton active />
          )
        ) : !data.is_valid ? (
          <InvalidCode share={data} isSignedIn={isSignedIn} />
        ) : (
          <Flex vertical align="center" gap={24}>
            <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }} data-testid="share-title">
              {t('share.title', { name: data.inviter_name, product: PRODUCT_NAME })}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ margin: 0, textAlign: 'center' }}>
              {t('share.pitch')}
            </Typography.Paragraph>
            <Claims claims={data.claims} />
            {isSignedIn ? (
              <Flex vertical align="center" gap={8}>
                <Typography.Text>{t('share.alreadyRegistered')}</Typography.Text>
                <Link to="/">
                  <Button type="primary">{t('share.toConsole')}</Button>
                </Link>
              </Flex>
            ) : (
              <Link to={`/register?invite=${encodeURIComponent(data.invite_code)}`}>
                <Button type="primary" size="large">
                  {t('share.register')}
                </Button>
              </Link>
            )}
          </Flex>
        )}
      </Card>
    </Flex>
  );
}
