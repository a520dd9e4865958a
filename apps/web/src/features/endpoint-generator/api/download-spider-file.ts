import { callApi, downloadBlob } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Downloads a stored endpoint file (GET /token/spider/record/file/{id}) under its name; failures say "download failed". */
export async function downloadSpiderFile(id: number, filename: string): Promise<void> {
  const blob = await callApi(
    'tokenSpiderFile',
    { id },
    { failureMessage: translate('endpoint-generator:preview.downloadFailed') },
  );
  // File routes answer the raw Blob (the route table types their output as null).
  downloadBlob(blob as unknown as Blob, filename);
}
