import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Avatar, Badge, Button, Drawer, Dropdown, Layout, Menu, Space, Tooltip, Typography, theme } from 'antd';
import {
  BellOutlined,
  CompassOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SafetyOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatches, useNavigate } from 'react-router';
import { PRODUCT_NAME, formatYuan } from '@proxy/contract/light';
import { LanguageSwitch } from '../components/language-switch';
import { NoticeDialog } from '../components/notice-dialog';
import { ThemeSwitch } from '../components/theme-switch';
import { useIsPhone } from '../components/use-is-phone';
import { useUnreadNotificationCount } from '../entities/notifications/notification-list';
import { useHelpCenterUrl } from '../entities/site/site-settings';
import { GuidedTour, TOUR_TARGET_ATTRIBUTE } from '../features/tour/components/guided-tour';
import type { TTourTarget } from '../features/tour/model/tour-machine';
import { useRoles, useUserInfo } from '../entities/users/user-info';
import { callApi } from '../lib/api-client';
import { confirmAction } from '../lib/message';
import { logout } from '../lib/session';
import { readValue, writeRecord } from '../lib/storage';
import { openTab } from '../lib/tabs';
import { requestUserGuide } from '../lib/user-guide';
import { useThemeMode } from '../lib/theme';
import { KeepAliveOutlet } from './keep-alive-outlet';
import { HELP_CENTER_ICON, buildMenuEntries, findGroupKey, toAntdMenuItems, type TExternalMenuItem } from './menu';
import type { TAppRoute } from './route-types';
import { TabsBar } from './tabs-bar';

const SIDEBAR_KEY = 'SIDEBAR_COLLAPSED';

/**
 * Menu links that leave the console (spec section 2: /helpcenter, order 99):
 * HELP_CENTER_URL as the server says at run time, opened in a new tab; no
 * entry while it is unset.
 */
export function externalMenuItems(helpCenterUrl: string | null): TExternalMenuItem[] {
  return helpCenterUrl
    ? [
        {
          key: 'external:helpcenter',
          titleKey: 'common:menu.helpCenter',
          href: helpCenterUrl,
          order: 99,
          icon: HELP_CENTER_ICON,
        },
      ]
    : [];
}

/** The route record of the page being shown (from the router match's handle). */
export function useCurrentAppRoute(): TAppRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as { appRoute?: TAppRoute } | undefined;
    if (handle?.appRoute) return handle.appRoute;
  }
  return undefined;
}

/** Above this many unread notifications the bell's badge shows "99+". */
const BADGE_OVERFLOW = 99;

/** Width of the side menu, and of the drawer holding it on a phone. */
const SIDEBAR_WIDTH = 232;

/**
 * The header: the menu button, the balance, notifications and the user menu;
 * on a phone (`isPhone`) the menu button opens the menu drawer and the user
 * menu shows the avatar only.
 */
function HeaderBar(props: { isCollapsed: boolean; onToggle: () => void; isPhone: boolean }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const { data: user } = useUserInfo();
  const unread = useUnreadNotificationCount();
  const { token } = theme.useToken();
  // The bell's name holds the count its badge shows (antd's Badge shows 99+ above 99), so what is read matches what is seen.
  const bellLabel =
    unread > 0
      ? t('header.unreadCount', { count: unread > BADGE_OVERFLOW ? `${BADGE_OVERFLOW}+` : unread })
      : t('header.notifications');

  const signOut = () =>
    confirmAction({
      title: t('header.signOutConfirm'),
      onOk: async () => {
        // The server revokes every token of the user; sign out locally whatever it answers.
        await callApi('userLogout', undefined, { skipTips: true }).catch(() => undefined);
        logout();
      },
    });

  return (
    <Layout.Header
      style={{
        background: token.colorBgContainer,
        padding: props.isPhone ? '0 8px' : '0 16px',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        height: 56,
        lineHeight: '56px',
      }}
    >
      <Button
        type="text"
        icon={props.isCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={props.onToggle}
        aria-label={props.isCollapsed ? t('menu.expand') : t('menu.collapse')}
        data-testid="sidebar-toggle"
      />
      <div style={{ flex: 1 }} />
      <Space size={props.isPhone ? 0 : 4} align="center">
        <Tooltip title={t('header.balance')}>
          <Space
            size={4}
            data-testid="header-balance"
            style={{ padding: props.isPhone ? '0 4px' : '0 8px', whiteSpace: 'nowrap' }}
          >
            <WalletOutlined style={{ color: token.colorPrimary }} />
            <Typography.Text strong>{user ? formatYuan(user.balance) : '—'}</Typography.Text>
          </Space>
        </Tooltip>
        <Tooltip title={bellLabel}>
          <Link to="/notifications" aria-label={bellLabel} data-testid="header-notifications">
            <Button
              type="text"
              tabIndex={-1}
              icon={
                <Badge count={unread} overflowCount={BADGE_OVERFLOW} size="small" offset={[4, -2]}>
                  <BellOutlined />
                </Badge>
              }
            />
          </Link>
        </Tooltip>
        <Tooltip title={t('tour:start')}>
          <Button
            type="text"
            icon={<CompassOutlined />}
            onClick={requestUserGuide}
            aria-label={t('tour:start')}
            data-testid="tour-start"
          />
        </Tooltip>
        <LanguageSwitch isCompact />
        <ThemeSwitch />
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'user-center', icon: <UserOutlined />, label: t('header.userCenter') },
              // The operator area, for operators only (the area refuses everyone else anyway).
              ...(user?.is_admin ? [{ key: 'admin', icon: <SafetyOutlined />, label: t('header.admin') }] : []),
              { type: 'divider' },
              { key: 'sign-out', icon: <LogoutOutlined />, label: t('header.signOut'), danger: true },
            ],
            onClick: ({ key }) => {
              if (key === 'user-center') navigate('/user-center');
              else if (key === 'admin') navigate('/admin');
              else signOut();
            },
          }}
        >
          <Button
            type="text"
            data-testid="user-menu"
            aria-label={props.isPhone ? user?.name : undefined}
            style={{ display: 'flex', alignItems: 'center', gap: 8 }}
          >
            <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
            {props.isPhone ? null : (
              <span style={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' }}>{user?.name ?? ''}</span>
            )}
          </Button>
        </Dropdown>
      </Space>
    </Layout.Header>
  );
}

/**
 * The common layout of signed-in pages (spec section 2): collapsible side menu
 * filtered by role, header, tabs and a keep-alive page area.
 */
export function AppLayout(props: { routes: TAppRoute[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mode = useThemeMode();
  const roles = useRoles();
  const navigate = useNavigate();
  const location = useLocation();
  const appRoute = useCurrentAppRoute();
  const [isCollapsed, setIsCollapsed] = useState(() => readValue<boolean>('local', SIDEBAR_KEY) === true);

  const helpCenterUrl = useHelpCenterUrl();
  const entries = useMemo(
    () => buildMenuEntries(props.routes, roles, externalMenuItems(helpCenterUrl)),
    [props.routes, roles, helpCenterUrl],
  );
  const items = useMemo(() => toAntdMenuItems(entries, (key) => t(key)), [entries, t]);
  const selectedKey = appRoute?.menu ? appRoute.path : location.pathname;
  const [openKeys, setOpenKeys] = useState<string[]>(() => {
    const group = findGroupKey(entries, selectedKey);
    return group ? [group] : [];
  });

  useEffect(() => {
    if (appRoute && !appRoute.isTabless) {
      openTab({ key: location.pathname, path: `${location.pathname}${location.search}`, titleKey: appRoute.titleKey });
    }
  }, [appRoute, location.pathname, location.search]);

  // Open the submenu of the page reached by a link or a tab.
  useEffect(() => {
    const group = findGroupKey(entries, selectedKey);
    if (group) setOpenKeys((keys) => (keys.includes(group) ? keys : [...keys, group]));
  }, [entries, selectedKey]);

  // On a phone the menu is a drawer the header's button opens; choosing an entry (or any navigation) closes it.
  const isPhone = useIsPhone();
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  useEffect(() => setIsDrawerOpen(false), [location.pathname]);
  const isMenuFolded = isPhone ? false : isCollapsed;

  // The guided tour shows the menu before highlighting a part of it: the drawer on a phone,
  // the collapsed sidebar elsewhere, and a collapsed menu group.
  const layoutRef = useRef({ isCollapsed, openKeys, isPhone, isDrawerOpen });
  layoutRef.current = { isCollapsed, openKeys, isPhone, isDrawerOpen };
  const revealTarget = useCallback((target: TTourTarget) => {
    if (target.kind === 'center') return false;
    const now = layoutRef.current;
    let hasOpened = false;
    if (now.isPhone && !now.isDrawerOpen) {
      setIsDrawerOpen(true);
      hasOpened = true;
    }
    if (!now.isPhone && now.isCollapsed && target.kind !== 'sidebar' && target.kind !== 'menu') {
      writeRecord('local', SIDEBAR_KEY, false);
      setIsCollapsed(false);
      hasOpened = true;
    }
    if (target.kind === 'group' && !now.openKeys.includes(`group:${target.group}`)) {
      const key = `group:${target.group}`;
      setOpenKeys((keys) => (keys.includes(key) ? keys : [...keys, key]));
      hasOpened = true;
    }
    return hasOpened;
  }, []);
  const closeTourDrawer = useCallback(() => {
    if (layoutRef.current.isPhone) setIsDrawerOpen(false);
  }, []);
  const tourLayout = useMemo(
    () => ({ revealTarget, onTourEnd: closeTourDrawer, isPhone }),
    [revealTarget, closeTourDrawer, isPhone],
  );
  const [isNoticeSettled, setIsNoticeSettled] = useState(false);
  const settleNotice = useCallback(() => setIsNoticeSettled(true), []);

  const toggle = () => {
    setIsCollapsed((value) => {
      writeRecord('local', SIDEBAR_KEY, !value);
      return !value;
    });
  };

  const brand = (
    <Link
      to="/"
      onClick={() => setIsDrawerOpen(false)}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        height: 56,
        padding: isMenuFolded ? '0 24px' : '0 20px',
        color: token.colorText,
        fontWeight: 700,
        fontSize: 18,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
      }}
    >
      <span
        style={{
          display: 'inline-flex',
          width: 28,
          height: 28,
          flex: 'none',
          borderRadius: 8,
          background: token.colorPrimary,
          color: '#fff',
          alignItems: 'center',
          justifyContent: 'center',
          fontSize: 16,
        }}
      >
        P
      </span>
      {isMenuFolded ? null : PRODUCT_NAME}
    </Link>
  );
  const menu = (
    <Menu
      mode="inline"
      aria-label={t('common:menu.label')}
      {...{ [TOUR_TARGET_ATTRIBUTE]: 'menu' }}
      selectedKeys={[selectedKey]}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      items={items}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
      onClick={({ key }) => {
        setIsDrawerOpen(false);
        if (key.startsWith('/')) navigate(key);
      }}
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {isPhone ? (
        <Drawer
          placement="left"
          open={isDrawerOpen}
          onClose={() => setIsDrawerOpen(false)}
          size={SIDEBAR_WIDTH}
          closable={false}
          styles={{ body: { padding: 0 } }}
        >
          <div data-testid="menu-drawer" {...{ [TOUR_TARGET_ATTRIBUTE]: 'sidebar' }}>
            {brand}
            {menu}
          </div>
        </Drawer>
      ) : (
        <Layout.Sider
          collapsible
          collapsed={isCollapsed}
          onCollapse={(value) => {
            writeRecord('local', SIDEBAR_KEY, value);
            setIsCollapsed(value);
          }}
          trigger={null}
          width={SIDEBAR_WIDTH}
          theme={mode === 'dark' ? 'dark' : 'light'}
          style={{ background: token.colorBgContainer, borderRight: `1px solid ${token.colorBorderSecondary}` }}
          data-testid="sidebar"
          data-collapsed={isCollapsed}
          {...{ [TOUR_TARGET_ATTRIBUTE]: 'sidebar' }}
        >
          {brand}
          {menu}
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <HeaderBar
          isCollapsed={isPhone ? !isDrawerOpen : isCollapsed}
          onToggle={isPhone ? () => setIsDrawerOpen((value) => !value) : toggle}
          isPhone={isPhone}
        />
        <div style={{ background: token.colorBgContainer, minWidth: 0 }}>
          <TabsBar />
        </div>
        <Layout.Content style={{ padding: isPhone ? 12 : 16, minWidth: 0 }}>
          <KeepAliveOutlet />
        </Layout.Content>
      </Layout>
      <NoticeDialog onSettled={settleNotice} />
      <GuidedTour layout={tourLayout} canStartAutomatically={isNoticeSettled} />
    </Layout>
  );
}
