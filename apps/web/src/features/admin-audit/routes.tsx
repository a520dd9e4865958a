import { AuditOutlined } from '@ant-design/icons';
import type { TAppRoute } from '../../app/route-types';

/** Operator area: the audit list of operator calls (first entry of the operator menu, where /admin leads). */
export const adminAuditRoutes: TAppRoute[] = [
  {
    path: '/admin/audit',
    load: () => import('./components/audit-page'),
    access: 'admin',
    titleKey: 'admin-audit:title',
    menu: { order: 1, icon: <AuditOutlined /> },
  },
];
