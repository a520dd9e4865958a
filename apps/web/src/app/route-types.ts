import type { ComponentType, ReactNode } from 'react';

/**
 * A screen of the console. Each feature exports a list of these from
 * `src/features/<feature>/routes.tsx`; the app router collects them.
 */
export type TAppRoute = {
  /** Absolute path, e.g. "/user-center" or "/invite/:invite_code". */
  path: string;
  /** Lazy import of the screen (default export), so each route is its own chunk. */
  load: () => Promise<{ default: ComponentType }>;
  /**
   * "public": reachable without sign-in, shown without the layout (login, register...).
   * "protected": needs a token, shown inside the layout with menu and tabs.
   * "admin": the operator area (path under /admin): needs a token and an operator
   * account (`is_admin`), shown inside the operator layout with its own menu;
   * other signed-in users see a 403 page there.
   */
  access: 'public' | 'protected' | 'admin';
  /** i18n key of the title (tab label, menu label), e.g. "ipLists:title". */
  titleKey: string;
  /** Roles of which the user needs at least one (spec section 5); none means everyone signed in. */
  roles?: string[];
  /** Shown instead of the 403 page to a user without the roles: why, and what to do (lazy, like `load`). */
  loadRefusal?: () => Promise<{ default: ComponentType }>;
  /** Side menu entry; omitted means no menu entry. */
  menu?: {
    /**
     * Spec menu order (1 dashboard, 2 proxy group, 96 invite, 97 charge, 98 user center, 99 tools, 100 terms/api-docs).
     * Operator screens have their own menu and order (the first entry is where /admin leads).
     */
    order: number;
    icon?: ReactNode;
    /** Menu group key, e.g. "proxy" or "tools"; entries of a group share a submenu. */
    group?: string;
  };
  /** Never becomes a tab (spec: /404 and /login). */
  isTabless?: boolean;
  /**
   * A public screen built without antd (the sign-in pages): the router shows it without loading
   * antd's providers (app/antd-providers.tsx), which every other screen gets around it.
   */
  isLight?: boolean;
};
