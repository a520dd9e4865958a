import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** A download link for one file (POST /tools/software/link); a refusal is toasted with its reason. */
export function createSoftwareLink(file: string) {
  return callApi('softwareLink', { file }, { failureMessage: translate('downloads:downloadFailed') });
}

/** Starts the browser's own download of a link (ranges, resumption, no copy in memory). */
export function startDownload(url: string, file: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = file;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** Asks for a link, then downloads through it. */
export function useDownloadSoftware() {
  return useMutation({
    mutationFn: async (file: string) => {
      const { url } = await createSoftwareLink(file);
      startDownload(url, file);
      return url;
    },
  });
}
