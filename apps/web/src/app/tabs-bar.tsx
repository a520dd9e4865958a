import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { MoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { closeTab, useTabs, type TCloseMode } from '../lib/tabs';

const MODES: TCloseMode[] = ['this', 'others', 'left', 'right'];
const MODE_KEYS: Record<TCloseMode, string> = {
  this: 'tabs.closeThis',
  others: 'tabs.closeOthers',
  left: 'tabs.closeLeft',
  right: 'tabs.closeRight',
};

/** Open pages as tabs (kept in sessionStorage) with close this / others / left / right. */
export function TabsBar() {
  const { t } = useTranslation('common');
  const { tabs } = useTabs();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (tabs.length === 0) return null;

  const closeMenu = (key: string): MenuProps => {
    const index = tabs.findIndex((tab) => tab.key === key);
    return {
      items: MODES.map((mode) => ({
        key: mode,
        label: t(MODE_KEYS[mode]),
        disabled:
          (mode === 'others' && tabs.length <= 1) ||
          (mode === 'left' && index <= 0) ||
          (mode === 'right' && index >= tabs.length - 1),
      })),
      onClick: ({ key: mode, domEvent }) => {
        domEvent.stopPropagation();
        closeTab(key, mode as TCloseMode);
      },
    };
  };

  const activeKey = tabs.some((tab) => tab.key === pathname) ? pathname : undefined;
  return (
    <Tabs
      type="editable-card"
      hideAdd
      size="small"
      aria-label={t('tabs.label')}
      activeKey={activeKey}
      onChange={(key) => void navigate(tabs.find((tab) => tab.key === key)?.path ?? key)}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') closeTab(key, 'this');
      }}
      tabBarStyle={{ margin: 0, padding: '6px 16px 0' }}
      tabBarExtraContent={
        activeKey ? (
          <Dropdown menu={closeMenu(activeKey)} trigger={['click']}>
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined />}
              aria-label={t('tabs.actions')}
              data-testid="tabs-actions"
            />
          </Dropdown>
        ) : null
      }
      items={tabs.map((tab) => ({
        key: tab.key,
        closable: true,
        label: (
          <Dropdown menu={closeMenu(tab.key)} trigger={['contextMenu']}>
            <span data-testid={`tab-${tab.key}`}>{t(tab.titleKey)}</span>
          </Dropdown>
        ),
      }))}
    />
  );
}
