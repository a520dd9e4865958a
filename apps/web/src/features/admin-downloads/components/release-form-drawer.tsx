import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, DatePicker, Drawer, Flex, Form, Input, Row, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SOFTWARE_FILES_MAX, ZSoftwareReleaseCreateBody, type TSoftwarePlatform } from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { useCreateRelease } from '../api/releases';
import { FileFields } from './file-fields';
import { markRefusal } from './server-refusal';

/** One file of the form. */
export type TFileForm = { platform: TSoftwarePlatform; arch: string; url: string; size: number | null; sha256: string };
type TForm = { version: string; released_on: Dayjs | null; notes_zh: string; notes_en: string; files: TFileForm[] };

/** A new file row of the form. */
export const NEW_FILE: TFileForm = { platform: 'windows', arch: '', url: '', size: null, sha256: '' };
const fields = ZSoftwareReleaseCreateBody.shape;
const FIELD_NAMES = ['version', 'released_on', 'notes_zh', 'notes_en', 'files'] as const;

/**
 * Publish a release: version, date, notes in both languages and its files. The API fetches every file from its
 * link and refuses it unless the size and SHA-256 match; its refusals show under the fields they name.
 */
export function ReleaseFormDrawer(props: { isOpen: boolean; onClose: () => void }) {
  const { isOpen, onClose } = props;
  const { t } = useTranslation('admin-downloads');
  const isPhone = useIsPhone();
  const [form] = Form.useForm<TForm>();
  const create = useCreateRelease();
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    setRefusal(null);
    form.resetFields();
    form.setFieldsValue({ released_on: dayjs(), files: [NEW_FILE] });
  }, [isOpen, form]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setRefusal(null);
    try {
      const release = await create.mutateAsync({
        version: values.version,
        released_on: values.released_on!.format('YYYY-MM-DD'),
        notes_zh: values.notes_zh ?? '',
        notes_en: values.notes_en ?? '',
        files: values.files.map((file) => ({ ...file, arch: file.arch ?? '', size: file.size ?? 0 })),
      });
      showSuccess(t('form.published', { version: release.version }));
      onClose();
    } catch (error) {
      setRefusal(markRefusal(form, error, FIELD_NAMES));
    }
  };

  return (
    <Drawer
      open={isOpen}
      onClose={onClose}
      title={t('form.title')}
      size={isPhone ? '100%' : 720}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="primary" loading={create.isPending} onClick={() => void save()} data-testid="release-save">
            {t('form.publish')}
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{t('form.intro')}</Typography.Paragraph>
      {refusal && (
        <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="release-refusal" />
      )}
      <Form<TForm> form={form} name="release" layout="vertical" data-testid="release-form">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="version" label={t('form.version')} required rules={[zodRule(fields.version)]}>
              <Input maxLength={40} placeholder="2.0.0" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="released_on"
              label={t('form.date')}
              rules={[{ required: true, message: t('form.dateRequired') }]}
            >
              <DatePicker style={{ width: '100%' }} allowClear={false} />
            </Form.Item>
          </Col>
          <Col xs={24} lg={12}>
            <Form.Item name="notes_zh" label={t('form.notesZh')} rules={[zodRule(fields.notes_zh)]}>
              <Input.TextArea maxLength={4000} autoSize={{ minRows: 3, maxRows: 10 }} />
            </Form.Item>
          </Col>
          <Col xs={24} lg={12}>
            <Form.Item name="notes_en" label={t('form.notesEn')} rules={[zodRule(fields.notes_en)]}>
              <Input.TextArea maxLength={4000} autoSize={{ minRows: 3, maxRows: 10 }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.List name="files">
          {(items, { add, remove }) => (
            <Flex vertical gap={12}>
              {items.map((item, index) => (
                <Card
                  key={item.key}
                  size="small"
                  title={t('form.fileTitle', { n: index + 1 })}
                  extra={
                    items.length > 1 ? (
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('form.removeFile', { n: index + 1 })}
                        onClick={() => remove(item.name)}
                      />
                    ) : null
                  }
                  data-testid={`release-file-${index}`}
                >
                  <FileFields prefix={[item.name]} label={` (${index + 1})`} />
                </Card>
              ))}
              {items.length < SOFTWARE_FILES_MAX && (
                <Button icon={<PlusOutlined />} onClick={() => add(NEW_FILE)} data-testid="release-add-file">
                  {t('form.addFile')}
                </Button>
              )}
            </Flex>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}
