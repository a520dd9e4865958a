import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SOFTWARE_FILE_SIZE_MAX, SOFTWARE_PLATFORMS, ZSoftwareFileInput } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';

const fields = ZSoftwareFileInput.shape;

/** The fields of one file: platform, arch, link, size in bytes and SHA-256; `prefix` is its place in a list. */
export function FileFields(props: { prefix: (string | number)[]; label?: string }) {
  const { t } = useTranslation('admin-downloads');
  const name = (field: string) => [...props.prefix, field];
  const id = props.label ?? '';
  return (
    <Row gutter={12}>
      <Col xs={12} sm={8}>
        <Form.Item name={name('platform')} label={t('file.platform')} rules={[zodRule(fields.platform)]}>
          <Select
            aria-label={`${t('file.platform')}${id}`}
            options={SOFTWARE_PLATFORMS.map((p) => ({ value: p, label: t(`platforms.${p}`) }))}
          />
        </Form.Item>
      </Col>
      <Col xs={12} sm={8}>
        <Form.Item name={name('arch')} label={t('file.arch')} rules={[zodRule(fields.arch)]}>
          <Input maxLength={20} placeholder="x64" aria-label={`${t('file.arch')}${id}`} />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name={name('size')} label={t('file.size')} rules={[zodRule(fields.size)]}>
          <InputNumber<number>
            min={1}
            max={SOFTWARE_FILE_SIZE_MAX}
            precision={0}
            style={{ width: '100%' }}
            aria-label={`${t('file.size')}${id}`}
          />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name={name('url')} label={t('file.url')} rules={[zodRule(fields.url)]} extra={t('file.urlHint')}>
          <Input
            maxLength={2000}
            placeholder="https://downloads.example.com/ProxyHub-2.0.0-x64.exe"
            aria-label={`${t('file.url')}${id}`}
          />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name={name('sha256')} label={t('file.sha256')} rules={[zodRule(fields.sha256)]}>
          <Input
            maxLength={64}
            style={{ fontFamily: 'monospace' }}
            autoComplete="off"
            aria-label={`${t('file.sha256')}${id}`}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
