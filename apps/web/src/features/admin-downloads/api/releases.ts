import { useMutation, useQuery } from '@tanstack/react-query';
import type { TRouteRequest } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

/** Root key of the operator's software releases. */
export const ADMIN_RELEASES_KEY = ['admin', 'software-releases'] as const;

/** The published releases with their files (GET /admin/downloads/releases). */
export function useReleases() {
  return useQuery({
    queryKey: ADMIN_RELEASES_KEY,
    queryFn: ({ signal }) =>
      callApi('adminSoftwareReleaseList', {}, { signal, failureMessage: translate('admin-downloads:errors.load') }),
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_RELEASES_KEY });

/** Publish a release; the API fetches each file first. The form shows the refusals under the fields it names. */
export function useCreateRelease() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminSoftwareReleaseCreate'>) =>
      callApi('adminSoftwareReleaseCreate', body, { failureMessage: translate('admin-downloads:errors.publish') }),
    onSuccess: refresh,
  });
}

/** Add a file to a release (fetched and checked by the API first). */
export function useAddReleaseFile() {
  return useMutation({
    mutationFn: (body: TRouteRequest<'adminSoftwareFileAdd'>) =>
      callApi('adminSoftwareFileAdd', body, { failureMessage: translate('admin-downloads:errors.addFile') }),
    onSuccess: refresh,
  });
}

/** Delete a release and its files. */
export function useDeleteRelease() {
  return useMutation({
    mutationFn: (id: number) =>
      callApi('adminSoftwareReleaseDelete', { id }, { failureMessage: translate('admin-downloads:errors.delete') }),
    onSuccess: refresh,
  });
}

/** Remove one file of a release. */
export function useRemoveReleaseFile() {
  return useMutation({
    mutationFn: (body: { id: number; file_id: number }) =>
      callApi('adminSoftwareFileRemove', body, { failureMessage: translate('admin-downloads:errors.removeFile') }),
    onSuccess: refresh,
  });
}
