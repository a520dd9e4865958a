import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TAdminAdjustBody, TAdminMailKind } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of every operator query about accounts. */
const ADMIN_USERS_KEY = ['admin', 'users'] as const;

/** Filters of the account list. */
export type TUserFilters = { keyword?: string; status?: 'active' | 'disabled' };

/** A page of accounts (GET /admin/users/list). */
export function useAdminUsers(params: { page: number; pageSize: number; filters: TUserFilters }) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, 'list', params],
    queryFn: ({ signal }) =>
      callApi(
        'adminUserList',
        { page: params.page, page_size: params.pageSize, ...params.filters },
        { signal, failureMessage: translate('admin-users:errors.list') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** One account's page (GET /admin/users/{id}). */
export function useAdminUser(id: number) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, id],
    queryFn: ({ signal }) =>
      callApi('adminUserDetail', { id }, { signal, failureMessage: translate('admin-users:errors.user') }),
  });
}

/** A page of one account's statement. */
export function useAdminUserLedger(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, id, 'ledger', page, pageSize],
    queryFn: ({ signal }) =>
      callApi(
        'adminUserLedger',
        { id, page, page_size: pageSize },
        { signal, failureMessage: translate('admin-users:errors.ledger') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** A page of one account's recharge orders. */
export function useAdminUserOrders(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, id, 'orders', page, pageSize],
    queryFn: ({ signal }) =>
      callApi(
        'adminUserOrders',
        { id, page, page_size: pageSize },
        { signal, failureMessage: translate('admin-users:errors.orders') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** A page of one account's proxies (deleted ones too). */
export function useAdminUserProxies(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, id, 'proxies', page, pageSize],
    queryFn: ({ signal }) =>
      callApi(
        'adminUserProxies',
        { id, page, page_size: pageSize },
        { signal, failureMessage: translate('admin-users:errors.proxies') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** A page of one account's sessions that are not ended. */
export function useAdminUserSessions(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, id, 'sessions', page, pageSize],
    queryFn: ({ signal }) =>
      callApi(
        'adminUserSessions',
        { id, page, page_size: pageSize },
        { signal, failureMessage: translate('admin-users:errors.sessions') },
      ),
    placeholderData: keepPreviousData,
  });
}

/** A page of the accounts one account invited. */
export function useAdminUserInvitees(id: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...ADMIN_USERS_KEY, id, 'invitees', page, pageSize],
    queryFn: ({ signal }) =>
      callApi(
        'adminUserInvitees',
        { id, page, page_size: pageSize },
        { signal, failureMessage: translate('admin-users:errors.invitees') },
      ),
    placeholderData: keepPreviousData,
  });
}

// Everything shown about accounts follows a change.
const refreshUsers = () => queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });

/** Credit or debit an account with a reason (POST /admin/users/{id}/balance). */
export function useAdjustBalance(id: number) {
  return useMutation({
    mutationFn: (body: TAdminAdjustBody) =>
      callApi('adminUserAdjust', { id, ...body }, { failureMessage: translate('admin-users:errors.adjust') }),
    onSettled: refreshUsers,
  });
}

/** Disable or enable an account. */
export function useSetUserStatus(id: number) {
  return useMutation({
    mutationFn: (status: 'active' | 'disabled') =>
      callApi('adminUserSetStatus', { id, status }, { failureMessage: translate('admin-users:errors.status') }),
    onSettled: refreshUsers,
  });
}

/** Grant or revoke the operator role. */
export function useSetOperator(id: number) {
  return useMutation({
    mutationFn: (isAdmin: boolean) =>
      callApi('adminUserSetAdmin', { id, is_admin: isAdmin }, { failureMessage: translate('admin-users:errors.role') }),
    onSettled: refreshUsers,
  });
}

/** Ends one of an account's sessions. */
export function useEndUserSession(id: number) {
  return useMutation({
    mutationFn: (sessionId: number) =>
      callApi(
        'adminUserSessionEnd',
        { id, session_id: sessionId },
        { failureMessage: translate('admin-users:errors.endSession') },
      ),
    onSettled: refreshUsers,
  });
}

/** E-mails the account again: a password reset code, or the verification e-mail. */
export function useSendUserMail(id: number) {
  return useMutation({
    mutationFn: (kind: TAdminMailKind) =>
      callApi('adminUserSendMail', { id, kind }, { failureMessage: translate('admin-users:errors.mail') }),
  });
}
