import { useEffect } from 'react';
import { Alert, Button, Col, Flex, Form, Input, InputNumber, Modal, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ZPoolCheckBody, type TPool } from '@proxy/contract';
import { checkWithZod, zodRule } from '../../../lib/form-rules';
import { getErrorMessage, getServerIssues } from '../../../lib/server-issues';
import { useCheckPool } from '../api/pools';
import { CheckResult } from './check-result';

type TForm = { country: string; state: string; city: string; session: string; minutes: number | null };

const FIELDS: readonly string[] = ['country', 'state', 'city', 'session', 'minutes'];
const fields = ZPoolCheckBody.shape;

/**
 * Check a pool: an area (country, optional state and city) and an optional session label, dialled through the
 * pool's template; shows the exit IP, its country and the latency, or the provider's refusal. A refusal of the
 * API itself (a placeholder the area gives no value) is shown as the API words it, in the operator's language.
 */
export function CheckModal(props: { pool: TPool | null; onClose: () => void }) {
  const { pool, onClose } = props;
  const { t } = useTranslation('admin-pools');
  const [form] = Form.useForm<TForm>();
  const check = useCheckPool();

  useEffect(() => {
    check.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a pool opened starts a new check
  }, [pool]);

  const run = async () => {
    if (!pool) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    await check
      .mutateAsync({
        id: pool.id,
        country: values.country,
        state: values.state ?? '',
        city: values.city ?? '',
        session: values.session ?? '',
        ...(values.minutes ? { minutes: values.minutes } : {}),
      })
      .catch((error: unknown) => {
        const issues = getServerIssues(error).filter((i) => FIELDS.includes(i.path));
        form.setFields(issues.map((i) => ({ name: i.path as keyof TForm, errors: [i.message] })));
      });
  };

  const issues = getServerIssues(check.error);
  const refusal =
    check.error && !(issues.length > 0 && issues.every((i) => FIELDS.includes(i.path)))
      ? getErrorMessage(check.error)
      : null;

  return (
    <Modal
      open={pool !== null}
      title={pool ? t('check.title', { name: pool.name }) : ''}
      onCancel={onClose}
      width={680}
      destroyOnHidden
      footer={<Button onClick={onClose}>{t('check.close')}</Button>}
    >
      <Typography.Paragraph type="secondary">{t('check.explain')}</Typography.Paragraph>
      <Form<TForm>
        form={form}
        name="poolCheck"
        layout="vertical"
        initialValues={{ country: '', state: '', city: '', session: '', minutes: null }}
        onFinish={() => void run()}
        data-testid="check-form"
      >
        <Row gutter={12}>
          <Col xs={24} sm={8}>
            <Form.Item
              name="country"
              label={t('check.country')}
              rules={[{ required: true, message: t('check.countryRule') }, zodRule(fields.country)]}
            >
              <Input maxLength={2} placeholder="us" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="state" label={t('check.state')} rules={[zodRule(fields.state)]}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="city" label={t('check.city')} rules={[zodRule(fields.city)]}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={16}>
            <Form.Item
              name="session"
              label={t('check.session')}
              extra={t('check.sessionHint')}
              rules={[zodRule(fields.session)]}
            >
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="minutes"
              label={t('check.minutes')}
              rules={[
                { validator: (_rule, v: unknown) => (v == null ? Promise.resolve() : checkWithZod(fields.minutes, v)) },
              ]}
            >
              <InputNumber<number> min={1} max={120} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Flex justify="end" style={{ marginBottom: 16 }}>
          <Button type="primary" htmlType="submit" loading={check.isPending} data-testid="check-run">
            {t('check.run')}
          </Button>
        </Flex>
      </Form>
      {refusal && <Alert type="error" showIcon title={refusal} data-testid="check-refusal" />}
      {check.data && !check.isPending && <CheckResult result={check.data} />}
    </Modal>
  );
}
