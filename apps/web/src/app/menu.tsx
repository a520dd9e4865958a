import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  AppstoreOutlined,
  CloudServerOutlined,
  GlobalOutlined,
  HomeOutlined,
  QuestionCircleOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { TAppRoute } from './route-types';
import { hasRequiredRole } from '../entities/users/user-info';

/** A menu link that leaves the console (opened in a new tab). */
export type TExternalMenuItem = {
  key: string;
  titleKey: string;
  href: string;
  order: number;
  icon?: ReactNode;
  group?: string;
};

/** One entry of the side menu before translation. */
export type TMenuEntry =
  | { kind: 'item'; key: string; titleKey: string; order: number; icon?: ReactNode; href?: string }
  | { kind: 'group'; key: string; titleKey: string; order: number; icon?: ReactNode; children: TMenuEntry[] };

const GROUP_ICONS: Record<string, ReactNode> = {
  proxy: <GlobalOutlined />,
  residential: <HomeOutlined />,
  datacenter: <CloudServerOutlined />,
  tools: <ToolOutlined />,
};

/** Icon of the help-center link. */
export const HELP_CENTER_ICON = <QuestionCircleOutlined />;

/**
 * A side menu (spec section 2): routes of one area (the customer console's
 * "protected" routes, or the operator area's "admin" routes) with `menu`,
 * filtered by the user's roles, sorted by order, entries of a group gathered
 * under one submenu placed at its first entry's order.
 */
export function buildMenuEntries(
  routes: TAppRoute[],
  roles: readonly string[],
  extras: TExternalMenuItem[] = [],
  area: 'protected' | 'admin' = 'protected',
): TMenuEntry[] {
  type TFlat = { key: string; titleKey: string; order: number; icon?: ReactNode; href?: string; group?: string };
  const flat: TFlat[] = [
    ...routes
      .filter((r) => r.access === area && r.menu && hasRequiredRole(r.roles, roles))
      .map((r) => ({
        key: r.path,
        titleKey: r.titleKey,
        order: r.menu!.order,
        icon: r.menu!.icon,
        group: r.menu!.group,
      })),
    ...extras.map((e) => ({
      key: e.key,
      titleKey: e.titleKey,
      order: e.order,
      icon: e.icon,
      href: e.href,
      group: e.group,
    })),
  ];
  // Stable sort: equal orders keep their declaration order.
  flat.sort((a, b) => a.order - b.order);
  const top: TMenuEntry[] = [];
  const groups = new Map<string, Extract<TMenuEntry, { kind: 'group' }>>();
  for (const entry of flat) {
    const item: TMenuEntry = {
      kind: 'item',
      key: entry.key,
      titleKey: entry.titleKey,
      order: entry.order,
      icon: entry.icon,
      href: entry.href,
    };
    if (!entry.group) {
      top.push(item);
      continue;
    }
    let group = groups.get(entry.group);
    if (!group) {
      group = {
        kind: 'group',
        key: `group:${entry.group}`,
        titleKey: `common:menu.group.${entry.group}`,
        order: entry.order,
        icon: GROUP_ICONS[entry.group] ?? <AppstoreOutlined />,
        children: [],
      };
      groups.set(entry.group, group);
      top.push(group);
    }
    group.children.push(item);
  }
  return top;
}

/** Turns menu entries into antd Menu items with translated labels. */
export function toAntdMenuItems(entries: TMenuEntry[], t: (key: string) => string): NonNullable<MenuProps['items']> {
  return entries.map((entry) => {
    if (entry.kind === 'group') {
      // data-tour: what the guided tour highlights (a group "group:<name>", an entry "item:<path>").
      return {
        key: entry.key,
        icon: entry.icon,
        label: t(entry.titleKey),
        children: toAntdMenuItems(entry.children, t),
        'data-tour': entry.key,
      };
    }
    const label = entry.href ? (
      <a href={entry.href} target="_blank" rel="noopener noreferrer">
        {t(entry.titleKey)}
      </a>
    ) : (
      t(entry.titleKey)
    );
    return { key: entry.key, icon: entry.icon, label, 'data-tour': `item:${entry.key}` };
  });
}

/** Key of the group holding `key`, for opening the right submenu. */
export function findGroupKey(entries: TMenuEntry[], key: string): string | undefined {
  return entries.find((e) => e.kind === 'group' && e.children.some((c) => c.key === key))?.key;
}
