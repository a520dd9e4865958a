import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Drawer, Layout, Menu, Space, Tag, Tooltip, Typography, theme } from 'antd';
import { ArrowLeftOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '@proxy/contract/light';
import { ForbiddenResult } from '../components/forbidden-result';
import { LanguageSwitch } from '../components/language-switch';
import { PageLoading } from '../components/page-loading';
import { ThemeSwitch } from '../components/theme-switch';
import { useIsPhone } from '../components/use-is-phone';
import { useRoles, useUserInfo } from '../entities/users/user-info';
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

/** The operator area's header; on a phone (`onOpenMenu` given) it starts with the menu button and keeps its links to icons. */
function AdminHeader(props: { onOpenMenu?: () => void }) {
  const { t } = useTranslation('common');
  const isPhone = props.onOpenMenu !== undefined;
  const { data: user } = useUserInfo();
  const { token } = theme.useToken();
  return (
    <Layout.Header
      style={{
        background: token.colorBgContainer,
        padding: isPhone ? '0 8px' : '0 16px',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        height: 56,
        lineHeight: '56px',
      }}
    >
      {props.onOpenMenu ? (
        <Button
          type="text"
          icon={<MenuUnfoldOutlined />}
          onClick={props.onOpenMenu}
          aria-label={t('menu.expand')}
          data-testid="admin-menu-toggle"
        />
      ) : null}
      <Link to="/" data-testid="admin-back-to-console" aria-label={isPhone ? t('admin.backToConsole') : undefined}>
        <Button type="text" tabIndex={-1} icon={<ArrowLeftOutlined />}>
          {isPhone ? null : t('admin.backToConsole')}
        </Button>
      </Link>
      <div style={{ flex: 1 }} />
      <Space size={isPhone ? 0 : 4} align="center">
        <LanguageSwitch isCompact />
        <ThemeSwitch />
        {isPhone ? (
          <Tooltip title={user?.email}>
            <UserOutlined aria-label={user?.email} data-testid="admin-operator" style={{ padding: '0 8px' }} />
          </Tooltip>
        ) : (
          <Space size={4} style={{ padding: '0 8px' }} data-testid="admin-operator">
            <UserOutlined />
            <Typography.Text>{user?.email ?? ''}</Typography.Text>
          </Space>
        )}
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

  // On a phone the menu is a drawer the header's button opens; choosing an entry (or any navigation) closes it.
  const isPhone = useIsPhone();
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  useEffect(() => setIsDrawerOpen(false), [location.pathname]);

  const brand = (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        height: 56,
        padding: '0 20px',
        whiteSpace: 'nowrap',
        overflow: 'hidden',
      }}
    >
      <Typography.Text strong style={{ fontSize: 18 }}>
        {PRODUCT_NAME}
      </Typography.Text>
      <Tag color="gold">{t('common:admin.area')}</Tag>
    </div>
  );
  const menu = (
    <Menu
      mode="inline"
      aria-label={t('common:admin.menuLabel')}
      selectedKeys={[selectedKey]}
      defaultOpenKeys={openKeys}
      items={items}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
      onClick={({ key }) => {
        setIsDrawerOpen(false);
        if (key.startsWith('/')) navigate(key);
      }}
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="admin-layout">
      {isPhone ? (
        <Drawer
          placement="left"
          open={isDrawerOpen}
          onClose={() => setIsDrawerOpen(false)}
          size={232}
          closable={false}
          styles={{ body: { padding: 0 } }}
        >
          <div data-testid="admin-menu-drawer">
            {brand}
            {menu}
          </div>
        </Drawer>
      ) : (
        <Layout.Sider
          width={232}
          theme={mode === 'dark' ? 'dark' : 'light'}
          style={{ background: token.colorBgContainer, borderRight: `1px solid ${token.colorBorderSecondary}` }}
          data-testid="admin-sidebar"
        >
          {brand}
          {menu}
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <AdminHeader onOpenMenu={isPhone ? () => setIsDrawerOpen(true) : undefined} />
        <Layout.Content
          style={{ padding: isPhone ? 12 : 16, minWidth: 0 }}
          data-testid="admin-content"
          data-pathname={location.pathname}
        >
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
