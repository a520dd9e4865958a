import { useMutation } from '@tanstack/react-query';
import type { TExportLineFormat, TProxyList } from '@proxy/contract';
import { toListQuery, type TTokenListFilters } from '../../../entities/proxies/token-list';
import { callApi, downloadBlob } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** File formats of the export. */
export type TExportFileFormat = 'txt' | 'csv';

/** What to export: the selected ids, else every proxy of the list matching the filters. */
export type TExportRequest = {
  list: TProxyList;
  tokenIds: number[];
  filters: TTokenListFilters;
  format: TExportFileFormat;
  line: TExportLineFormat;
};

/** Query of GET /token/export: token_ids=1,2 when proxies are selected, otherwise the list and its filters. */
export function buildExportQuery(request: TExportRequest): Record<string, string> {
  const base = { format: request.format, line: request.line };
  if (request.tokenIds.length > 0) return { ...base, token_ids: request.tokenIds.join(',') };
  return { ...base, list: request.list, ...toListQuery(request.filters) };
}

/** Downloads the export file (a blob) as proxies-<list>.<format>; failures say "export failed". */
export async function exportTokens(request: TExportRequest): Promise<void> {
  const blob = await callApi('tokenExport', buildExportQuery(request) as never, {
    failureMessage: translate('proxies:export.failed'),
  });
  downloadBlob(blob as Blob, `proxies-${request.list.replace('/', '-')}.${request.format}`);
}

/** Mutation of the export dialog. */
export function useExportTokens() {
  return useMutation({ mutationFn: exportTokens });
}
