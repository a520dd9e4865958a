import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Root key of the audit list queries (GET /admin/audit/list). */
export const AUDIT_LIST_QUERY_KEY = ['admin', 'audit', 'list'] as const;

/** Filters of the audit list, as the contract's `adminAuditList` takes them (all optional). */
export type TAuditFilters = {
  operator_id?: number;
  /** Part of the operator's e-mail, any case. */
  operator_email?: string;
  /** Route name, matched exactly. */
  route?: string;
  /** Target id, matched exactly. */
  target_id?: string;
  /** From this time (ISO 8601), inclusive. */
  from?: string;
  /** Before this time (ISO 8601). */
  to?: string;
};

/** Which page of the audit list, under which filters. */
export type TAuditListParams = { page: number; pageSize: number; filters: TAuditFilters };

/** One page of audit entries, newest first; a failure says "failed to load the audit list" with the reason. */
export function getAuditList(params: TAuditListParams, signal?: AbortSignal) {
  return callApi(
    'adminAuditList',
    { page: params.page, page_size: params.pageSize, ...params.filters },
    { signal, failureMessage: translate('admin-audit:fetchFailed') },
  );
}

/** Query options of a page of the audit list. */
export function auditListQueryOptions(params: TAuditListParams) {
  return queryOptions({
    queryKey: [...AUDIT_LIST_QUERY_KEY, params],
    queryFn: ({ signal }) => getAuditList(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** A page of the audit list. */
export function useAuditList(params: TAuditListParams) {
  return useQuery(auditListQueryOptions(params));
}
