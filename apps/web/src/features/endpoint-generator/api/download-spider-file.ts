import { callApi, downloadBlob } from '../../../lib/api-client';

/** Downloads a stored endpoint file (GET /token/spider/record/file/{id}) under its name. */
export async function downloadSpiderFile(id: number, filename: string): Promise<void> {
  const blob = await callApi('tokenSpiderFile', { id }, { skipTips: true });
  // File routes answer the raw Blob (the route table types their output as null).
  downloadBlob(blob as unknown as Blob, filename);
}
