import { useEffect, useState } from 'react';
import { Alert, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TSoftwareRelease } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { useAddReleaseFile } from '../api/releases';
import { FileFields } from './file-fields';
import { NEW_FILE, type TFileForm } from './release-form-drawer';
import { markRefusal } from './server-refusal';

const FIELD_NAMES = ['platform', 'arch', 'url', 'size', 'sha256'] as const;

/** Adds a file to a published release; the API fetches and checks it first and its refusal shows under the field. */
export function AddFileModal(props: { release: TSoftwareRelease | null; onClose: () => void }) {
  const { release, onClose } = props;
  const { t } = useTranslation('admin-downloads');
  const [form] = Form.useForm<TFileForm>();
  const add = useAddReleaseFile();
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    if (!release) return;
    setRefusal(null);
    form.resetFields();
    form.setFieldsValue(NEW_FILE);
  }, [release, form]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !release) return;
    setRefusal(null);
    try {
      await add.mutateAsync({ id: release.id, ...values, arch: values.arch ?? '', size: values.size ?? 0 });
      showSuccess(t('fileAdded', { version: release.version }));
      onClose();
    } catch (error) {
      setRefusal(markRefusal(form, error, FIELD_NAMES));
    }
  };

  return (
    <Modal
      open={release !== null}
      title={release ? t('addFileTitle', { version: release.version }) : ''}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('addFile')}
      cancelText={t('cancel')}
      confirmLoading={add.isPending}
      destroyOnHidden
      width={640}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form<TFileForm> form={form} name="release-file" layout="vertical" data-testid="add-file-form">
        <FileFields prefix={[]} />
      </Form>
    </Modal>
  );
}
