import { Button, Flex, Form, Input, InputNumber } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { POOL_ENDPOINTS_MAX, ZPoolEndpoint } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';

/** A pool's endpoints in the order they are tried: host and port each, added, removed and moved up or down. */
export function EndpointsField() {
  const { t } = useTranslation('admin-pools');
  return (
    <Form.Item label={t('form.endpoints')} extra={t('form.endpointsHint')} required>
      <Form.List name="endpoints">
        {(fields, { add, remove, move }, { errors }) => (
          <Flex vertical gap={8} data-testid="pool-endpoints">
            {fields.map((field, index) => {
              const n = index + 1;
              return (
                <Flex key={field.key} gap={4} align="start">
                  <Form.Item
                    name={[field.name, 'host']}
                    rules={[zodRule(ZPoolEndpoint.shape.host)]}
                    style={{ flex: 1, marginBottom: 0 }}
                  >
                    <Input
                      aria-label={t('form.host', { index: n })}
                      placeholder={t('form.hostPlaceholder')}
                      maxLength={253}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'port']}
                    rules={[zodRule(ZPoolEndpoint.shape.port)]}
                    style={{ marginBottom: 0 }}
                  >
                    <InputNumber<number>
                      aria-label={t('form.port', { index: n })}
                      placeholder={t('form.portPlaceholder')}
                      min={1}
                      max={65535}
                      precision={0}
                      style={{ width: 100 }}
                    />
                  </Form.Item>
                  <Button
                    icon={<ArrowUpOutlined />}
                    aria-label={t('form.moveUp', { index: n })}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  />
                  <Button
                    icon={<ArrowDownOutlined />}
                    aria-label={t('form.moveDown', { index: n })}
                    disabled={index === fields.length - 1}
                    onClick={() => move(index, index + 1)}
                  />
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('form.removeEndpoint', { index: n })}
                    disabled={fields.length === 1}
                    onClick={() => remove(field.name)}
                  />
                </Flex>
              );
            })}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= POOL_ENDPOINTS_MAX}
              onClick={() => add({ host: '', port: undefined })}
            >
              {t('form.addEndpoint')}
            </Button>
            <Form.ErrorList errors={errors} />
          </Flex>
        )}
      </Form.List>
    </Form.Item>
  );
}
