import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Uploads an image to send with a new work order or a reply (POST /user/work/order/attachment, multipart). */
export function uploadAttachment(file: File, signal?: AbortSignal) {
  return callApi(
    'workOrderAttachmentUpload',
    { file },
    { signal, failureMessage: translate('work-orders:attachments.uploadFailed', { name: file.name }) },
  );
}
