import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '@proxy/contract';
import { ApiError } from '../../../lib/api-client';
import { useIsPhone } from '../../../components/use-is-phone';
import { zodRule } from '../../../lib/form-rules';
import { useCheckIpQuality } from '../api/check-ip-quality';
import { useMyIp } from '../api/my-ip';
import { IpQualityResult } from './ip-quality-result';

type TValues = { ip: string };

/** The message of a failed check (already in the user's language). */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.msg;
  return error instanceof Error ? error.message : '';
}

/**
 * /tools/ip-quality: check any address (required, validated with the
 * contract's rule), prefilled with the caller's own public address.
 */
export default function IpQualityPage() {
  const { t } = useTranslation('ip-quality');
  const isPhone = useIsPhone();
  const [form] = Form.useForm<TValues>();
  const check = useCheckIpQuality();
  const myIp = useMyIp();
  const [failure, setFailure] = useState<string | null>(null);

  // Offer the caller's own address unless the user has typed something already.
  useEffect(() => {
    if (myIp.data && !form.isFieldTouched('ip') && !form.getFieldValue('ip')) form.setFieldsValue({ ip: myIp.data.ip });
  }, [myIp.data, form]);

  const runCheck = async (ip: string) => {
    setFailure(null);
    try {
      await check.mutateAsync(ip.trim());
    } catch (error) {
      // The request layer has toasted it; the page shows the reason in place too.
      setFailure(failureMessage(error));
      if (error instanceof ApiError && error.code === 400) form.setFields([{ name: 'ip', errors: [error.msg] }]);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Card title={t('heading')}>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Form<TValues>
          form={form}
          name="ip-quality"
          layout={isPhone ? 'vertical' : 'inline'}
          requiredMark={false}
          onFinish={(values) => void runCheck(values.ip)}
        >
          <Form.Item
            name="ip"
            label={t('form.label')}
            rules={[zodRule(ROUTES.ipQuality.input.shape.ip)]}
            style={{ minWidth: 'min(340px, 100%)' }}
          >
            <Input
              placeholder={t('form.placeholder')}
              allowClear
              spellCheck={false}
              autoComplete="off"
              style={{ fontFamily: 'monospace' }}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={check.isPending}>
              {t('form.submit')}
            </Button>
          </Form.Item>
        </Form>
        {myIp.data && (
          <Flex gap={4} align="center" wrap style={{ marginTop: 8 }}>
            <Typography.Text type="secondary">{t('form.yourIp', { ip: myIp.data.ip })}</Typography.Text>
            <Button
              type="link"
              size="small"
              onClick={() => {
                form.setFieldsValue({ ip: myIp.data.ip });
                form.submit();
              }}
            >
              {t('form.useMine')}
            </Button>
          </Flex>
        )}
      </Card>
      {failure !== null && <Alert type="error" showIcon title={t('failed')} description={failure || undefined} />}
      {check.data && !check.isPending && failure === null && <IpQualityResult result={check.data} />}
    </Flex>
  );
}
