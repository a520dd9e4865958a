import { useMemo, type ReactNode } from 'react';
import { Button, Layout, Menu, Space, Tag, Typography, theme } from 'antd';
import { ArrowLeftOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '@proxy/contract';
import { ForbiddenResult } from '../components/forbidden-result';
import { LanguageSwitch } from '../components/language-switch';
import { PageLoading } from '../components/page-loading';
import { ThemeSwitch } from '../components/theme-switch';
import { useRoles, useUserInfo } from '../entities/user/user-info';
import { useThemeMode } from '../lib/theme';
import { useCurrentAppRoute } from './app-layout';
import { buildMenuEntries, toAntdMenuItems } from './menu';
import type { TAppRoute } from './route-types';

/**
 * Lets only operators (`is_admin` of the user info) into the operator area.
 * Anyone else gets the 403 page and nothing of the area: no menu, and no
 * screen is mounted, so no operator call is made for them.
 */
export function AdminGate(props: { children: ReactNode }) {
  const { data, isPending, isError } = useUserInfo();
  if (!data && isPending && !isError) return <PageLoading />;
  if (data?.is_admin !== true) {
    return (
      <Layout style={{ minHeight: '100vh', justifyContent: 'center' }} data-testid="admin-forbidden">
        <ForbiddenResult />
      </Layout>
    );
  }
  return <>{props.children}</>;
}

function AdminHeader() {
  const { t } = useTranslation('common');
  const { data: user } = useUserInfo();
  const { token } = theme.useToken();
  return (
    <Layout.Header
      style={{
        background: token.colorBgContainer,
        padding: '0 16px',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        height: 56,
        lineHeight: '56px',
      }}
    >
      <Link to="/" data-testid="admin-back-to-console">
        <Button type="text" tabIndex={-1} icon={<ArrowLeftOutlined />}>
          {t('admin.backToConsole')}
        </Button>
      </Link>
      <div style={{ flex: 1 }} />
      <Space size={4} align="center">
        <LanguageSwitch isCompact />
        <ThemeSwitch />
        <Space size={4} style={{ padding: '0 8px' }} data-testid="admin-operator">
          <UserOutlined />
          <Typography.Text>{user?.email ?? ''}</Typography.Text>
        </Space>
      </Space>
    </Layout.Header>
  );
}

/**
 * The operator area's layout (/admin/...): its own side menu built from the
 * "admin" routes, a header leading back to the customer console, and the
 * screen. Operators only (AdminGate).
 */
export function AdminLayout(props: { routes: TAppRoute[] }) {
  return (
    <AdminGate>
      <AdminShell routes={props.routes} />
    </AdminGate>
  );
}

function AdminShell(props: { routes: TAppRoute[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mode = useThemeMode();
  const roles = useRoles();
  const navigate = useNavigate();
  const location = useLocation();
  const appRoute = useCurrentAppRoute();

  const entries = useMemo(() => buildMenuEntries(props.routes, roles, [], 'admin'), [props.routes, roles]);
  const items = useMemo(() => toAntdMenuItems(entries, (key) => t(key)), [entries, t]);
  const selectedKey = appRoute?.menu ? appRoute.path : location.pathname;
  const openKeys = useMemo(() => entries.filter((e) => e.kind === 'group').map((e) => e.key), [entries]);

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="admin-layout">
      <Layout.Sider
        width={232}
        theme={mode === 'dark' ? 'dark' : 'light'}
        style={{ background: token.colorBgContainer, borderRight: `1px solid ${token.colorBorderSecondary}` }}
        data-testid="admin-sidebar"
      >
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, height: 56, padding: '0 20px', whiteSpace: 'nowrap', overflow: 'hidden' }}>
          <Typography.Text strong style={{ fontSize: 18 }}>
            {PRODUCT_NAME}
          </Typography.Text>
          <Tag color="gold">{t('common:admin.area')}</Tag>
        </div>
        <Menu
          mode="inline"
          aria-label={t('common:admin.menuLabel')}
          selectedKeys={[selectedKey]}
          defaultOpenKeys={openKeys}
          items={items}
          style={{ borderInlineEnd: 'none', background: 'transparent' }}
          onClick={({ key }) => {
            if (key.startsWith('/')) navigate(key);
          }}
        />
      </Layout.Sider>
      <Layout>
        <AdminHeader />
        <Layout.Content style={{ padding: 16, minWidth: 0 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
