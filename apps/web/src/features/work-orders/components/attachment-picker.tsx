import { Upload, type UploadFile, type UploadProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  WORK_ORDER_ATTACHMENTS_PER_MESSAGE,
  WORK_ORDER_ATTACHMENT_MAX_BYTES,
  WORK_ORDER_ATTACHMENT_TYPES,
  validationMessage,
  type TWorkOrderAttachment,
} from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';
import { showError } from '../../../lib/message';
import { uploadAttachment } from '../api/upload-attachment';

/** An image in the picker; `response` is the uploaded attachment once the upload is done. */
export type TPickedImage = UploadFile<TWorkOrderAttachment>;

/** Ids of the uploaded images of a picker's value, in order. */
export function uploadedIds(files: TPickedImage[] | undefined): number[] {
  return (files ?? []).filter((f) => f.status === 'done' && f.response).map((f) => f.response!.attachment_id);
}

/** True while an image of the picker is still uploading. */
export function isUploading(files: TPickedImage[] | undefined): boolean {
  return (files ?? []).some((f) => f.status === 'uploading');
}

/**
 * Images for a new work order or a reply (a Form field): png, jpeg or webp
 * of at most 5 MB each, at most 4, uploaded as soon as they are picked.
 * The server checks each image's content again.
 */
export function AttachmentPicker(props: {
  value?: TPickedImage[];
  onChange?: (files: TPickedImage[]) => void;
  id?: string;
}) {
  const { t } = useTranslation('work-orders');
  const files = props.value ?? [];

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const lang = getLanguage();
    if (!(WORK_ORDER_ATTACHMENT_TYPES as readonly string[]).includes(file.type)) {
      showError(`${file.name}: ${validationMessage('attachmentType', lang)}`);
      return Upload.LIST_IGNORE;
    }
    if (file.size > WORK_ORDER_ATTACHMENT_MAX_BYTES) {
      showError(`${file.name}: ${validationMessage('attachmentTooLarge', lang)}`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    uploadAttachment(file as File)
      .then((attachment) => onSuccess?.(attachment))
      .catch((error: Error) => onError?.(error));
  };

  return (
    <Upload<TWorkOrderAttachment>
      id={props.id}
      listType="picture-card"
      accept={WORK_ORDER_ATTACHMENT_TYPES.join(',')}
      multiple
      maxCount={WORK_ORDER_ATTACHMENTS_PER_MESSAGE}
      fileList={files}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      // A failed upload is toasted by the request layer and leaves the list.
      onChange={({ fileList }) => props.onChange?.(fileList.filter((f) => f.status !== 'error'))}
      aria-label={t('attachments.label')}
    >
      {files.length >= WORK_ORDER_ATTACHMENTS_PER_MESSAGE ? null : (
        <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>{t('attachments.add')}</div>
        </button>
      )}
    </Upload>
  );
}
