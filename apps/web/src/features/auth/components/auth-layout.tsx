import type { ReactNode } from 'react';
import { Flex, Grid, Typography, theme } from 'antd';
import { GlobalOutlined, SafetyCertificateOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CLAIMS, PRODUCT_NAME } from '@proxy/contract/light';
import { ThemeSwitch } from '../../../components/theme-switch';
import { LanguageButtons } from './language-buttons';

type TAuthLayoutProps = {
  title: string;
  subtitle?: string;
  children: ReactNode;
};

/** Frame of the public sign-in screens: brand panel with the product claims, the form card, language and theme switches. */
export function AuthLayout({ title, subtitle, children }: TAuthLayoutProps) {
  const { t } = useTranslation('auth');
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const claims = [
    { icon: <GlobalOutlined />, value: CLAIMS.residentialIps, label: t('claims.ips') },
    { icon: <ThunderboltOutlined />, value: String(CLAIMS.countries), label: t('claims.countries') },
    { icon: <SafetyCertificateOutlined />, value: CLAIMS.uptime, label: t('claims.uptime') },
  ];

  return (
    <Flex style={{ minHeight: '100vh', background: token.colorBgLayout }}>
      {screens.md && (
        <Flex
          vertical
          justify="center"
          gap={32}
          style={{
            flex: '1 1 45%',
            padding: '48px 56px',
            color: '#fff',
            background: `linear-gradient(135deg, ${token.colorPrimary} 0%, #00a2ff 100%)`,
          }}
        >
          <Typography.Title level={2} style={{ color: '#fff', margin: 0 }}>
            {PRODUCT_NAME}
          </Typography.Title>
          <Typography.Paragraph style={{ color: 'rgba(255,255,255,0.88)', fontSize: 16, margin: 0, maxWidth: 420 }}>{t('brand.tagline')}</Typography.Paragraph>
          <Flex vertical gap={20}>
            {claims.map((claim) => (
              <Flex key={claim.label} align="center" gap={16}>
                <span style={{ fontSize: 28 }}>{claim.icon}</span>
                <div>
                  <div style={{ fontSize: 24, fontWeight: 600, lineHeight: 1.2 }}>{claim.value}</div>
                  <div style={{ color: 'rgba(255,255,255,0.8)' }}>{claim.label}</div>
                </div>
              </Flex>
            ))}
          </Flex>
        </Flex>
      )}
      <Flex vertical style={{ flex: '1 1 55%', padding: 24 }}>
        <Flex justify="flex-end" align="center" gap={8}>
          <LanguageButtons />
          <ThemeSwitch />
        </Flex>
        <Flex flex={1} align="center" justify="center">
          {/* A borderless card's look without antd's Card, which brings its Tabs (~12 KB gzipped) to every sign-in page. */}
          <div
            style={{
              width: '100%',
              maxWidth: 420,
              padding: token.paddingLG,
              borderRadius: token.borderRadiusLG,
              background: token.colorBgContainer,
              color: token.colorText,
            }}
          >
            {!screens.md && (
              <Typography.Text strong style={{ color: token.colorPrimaryText, fontSize: 18 }}>
                {PRODUCT_NAME}
              </Typography.Text>
            )}
            <Typography.Title level={3} style={{ marginTop: 0, marginBottom: subtitle ? 4 : 24 }}>
              {title}
            </Typography.Title>
            {subtitle && (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 24 }}>
                {subtitle}
              </Typography.Paragraph>
            )}
            {children}
          </div>
        </Flex>
      </Flex>
    </Flex>
  );
}
