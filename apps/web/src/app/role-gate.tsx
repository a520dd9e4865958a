import type { ReactNode } from 'react';
import { ForbiddenResult } from '../components/forbidden-result';
import { PageLoading } from '../components/page-loading';
import { hasRequiredRole, useRoles, useUserInfo } from '../entities/users/user-info';

/** Shows the page only to users with at least one of `roles` (spec section 5); others see `refusal` (why, what to do) or the 403 page. */
export function RoleGate(props: { roles?: string[]; refusal?: ReactNode; children: ReactNode }) {
  const { data, isPending, isError } = useUserInfo();
  const roles = useRoles();
  if (!props.roles || props.roles.length === 0) return <>{props.children}</>;
  if (!data && isPending && !isError) return <PageLoading />;
  if (hasRequiredRole(props.roles, roles)) return <>{props.children}</>;
  return props.refusal ? <>{props.refusal}</> : <ForbiddenResult />;
}
