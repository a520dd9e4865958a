import { useMutation } from '@tanstack/react-query';
import { callApi, downloadBlob } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { toBillQuery, type TBillFilters } from './pay-records';

/** Downloads the bills matching the filters as CSV (GET /pay/record/export, a blob); failures say "export failed". */
export async function exportPayRecords(filters: TBillFilters): Promise<void> {
  const blob = await callApi('payRecordExport', toBillQuery(filters), {
    failureMessage: translate('payments:bills.exportFailed'),
  });
  // File routes answer the raw Blob (the route table types their output as null).
  downloadBlob(blob as unknown as Blob, 'bills.csv');
}

/** Mutation of the bills' export button. */
export function useExportPayRecords() {
  return useMutation({ mutationFn: exportPayRecords });
}
