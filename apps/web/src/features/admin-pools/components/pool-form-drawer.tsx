import { useEffect } from 'react';
import { Alert, Button, Col, Drawer, Flex, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ERRORS,
  INVENTORY_KINDS,
  POOL_AREA_CASES,
  POOL_PROTOCOLS,
  ZPoolCreateBody,
  describeCharacter,
  fenToYuan,
  isRefusedUsernameCharacter,
  validationMessage,
  yuanToFen,
  type TPool,
} from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { zodRule } from '../../../lib/form-rules';
import { getLanguage } from '../../../lib/i18n';
import { showSuccess } from '../../../lib/message';
import { getErrorMessage, getServerIssues } from '../../../lib/server-issues';
import { useCreatePool, usePool, useUpdatePool } from '../api/pools';
import { EndpointsField } from './endpoints-field';
import { TemplatePreview, templateProblem } from './template-preview';

type TForm = {
  name: string;
  kind: TPool['kind'];
  protocol: TPool['protocol'];
  endpoints: { host: string; port: number | null }[];
  username: string;
  password: string;
  username_template: string;
  area_case: TPool['area_case'];
  priority: number;
  weight: number;
  max_connections: number;
  cost_yuan: number;
  exit_ip_header: string;
  session_idle_minutes: number | null;
};

const NEW_POOL: TForm = {
  name: '',
  kind: 'residential',
  protocol: 'http-connect',
  endpoints: [{ host: '', port: null }],
  username: '',
  password: '',
  username_template: 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]',
  area_case: 'lower',
  priority: 10,
  weight: 100,
  max_connections: 1000,
  cost_yuan: 0,
  exit_ip_header: '',
  session_idle_minutes: null,
};

const fields = ZPoolCreateBody.shape;

// The account name goes into the username: a character no provider takes is named (the API's own message).
const usernameRule: FormRule = {
  validator: (_rule, value: unknown) => {
    const refused = [...String(value ?? '').trim()].find(isRefusedUsernameCharacter);
    return refused
      ? Promise.reject(
          new Error(validationMessage('poolUsernameChar', getLanguage(), { char: describeCharacter(refused) })),
        )
      : Promise.resolve();
  },
};

const templateRule: FormRule = {
  validator: (_rule, value: unknown) => {
    const problem = templateProblem(String(value ?? ''));
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
};

// A field the API names (`endpoints.0.port`, `cost_per_gb_fen`) as the form's field name.
function fieldOf(path: string): (string | number)[] | null {
  if (path === 'cost_per_gb_fen') return ['cost_yuan'];
  const parts = path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return parts[0] !== undefined && (parts[0] in NEW_POOL || parts[0] === 'endpoints') ? parts : null;
}

/**
 * Add or edit a pool. The password is write-only: the field starts empty on an edit, and left empty the stored one
 * is kept. The template is checked as it is typed and previewed for a sample area; the API's refusals are shown
 * under the fields they name, or above the form.
 */
export function PoolFormDrawer(props: { pool: TPool | null; isOpen: boolean; onClose: () => void }) {
  const { pool, isOpen, onClose } = props;
  const { t } = useTranslation('admin-pools');
  const isPhone = useIsPhone();
  const [form] = Form.useForm<TForm>();
  const create = useCreatePool();
  const update = useUpdatePool();
  const detail = usePool(isOpen && pool ? pool.id : null);
  const mutation = pool ? update : create;
  const watched = {
    template: Form.useWatch('username_template', form),
    user: Form.useWatch('username', form),
    areaCase: Form.useWatch('area_case', form),
  };

  useEffect(() => {
    if (!isOpen) return;
    create.reset();
    update.reset();
    form.resetFields();
    form.setFieldsValue(
      pool
        ? {
            name: pool.name,
            kind: pool.kind,
            protocol: pool.protocol,
            endpoints: pool.endpoints.map((e) => ({ host: e.host, port: e.port })),
            username: pool.username,
            password: '',
            username_template: pool.username_template,
            area_case: pool.area_case,
            priority: pool.priority,
            weight: pool.weight,
            max_connections: pool.max_connections,
            cost_yuan: fenToYuan(pool.cost_per_gb_fen),
            exit_ip_header: pool.exit_ip_header ?? '',
            session_idle_minutes: pool.session_idle_minutes,
          }
        : NEW_POOL,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a pool opened (or a new one) starts the form again
  }, [isOpen, pool]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const body = {
      name: values.name,
      kind: values.kind,
      protocol: values.protocol,
      endpoints: values.endpoints.map((e) => ({ host: e.host, port: e.port ?? 0 })),
      username: values.username,
      username_template: values.username_template,
      area_case: values.area_case,
      priority: values.priority,
      weight: values.weight,
      max_connections: values.max_connections,
      cost_per_gb_fen: yuanToFen(values.cost_yuan),
      // Empty: the pool does not report its exit IP, or does not state its idle limit (null).
      exit_ip_header: values.exit_ip_header.trim() === '' ? null : values.exit_ip_header,
      session_idle_minutes: values.session_idle_minutes ?? null,
    };
    try {
      const saved = pool
        ? await update.mutateAsync({ id: pool.id, ...body, ...(values.password ? { password: values.password } : {}) })
        : await create.mutateAsync({ ...body, password: values.password });
      showSuccess(t(pool ? 'form.saved' : 'form.created', { name: saved.name }));
      onClose();
    } catch (error) {
      const marked = getServerIssues(error).flatMap((issue) => {
        const name = fieldOf(issue.path);
        return name ? [{ name, errors: [issue.message] }] : [];
      });
      if ((error as { code?: number }).code === ERRORS.POOL_NAME_TAKEN.code)
        marked.push({ name: ['name'], errors: [getErrorMessage(error)] });
      form.setFields(marked as Parameters<typeof form.setFields>[0]);
    }
  };

  // Refusals no field shows (the name taken is shown under the name; a field the form lacks, above it).
  const error = mutation.error;
  const issues = getServerIssues(error);
  const isShownInFields =
    (error as { code?: number } | null)?.code === ERRORS.POOL_NAME_TAKEN.code ||
    (issues.length > 0 && issues.every((i) => fieldOf(i.path)));
  const refusal = error && !isShownInFields ? getErrorMessage(error) : null;

  const passwordRules: FormRule[] = pool ? [] : [zodRule(fields.password)];
  const title = pool ? t('form.editTitle', { name: pool.name }) : t('form.createTitle');

  return (
    <Drawer
      open={isOpen}
      onClose={onClose}
      title={title}
      size={isPhone ? '100%' : 640}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="primary" loading={mutation.isPending} onClick={() => void save()} data-testid="pool-save">
            {pool ? t('form.save') : t('form.create')}
          </Button>
        </Flex>
      }
    >
      {refusal && (
        <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="pool-form-refusal" />
      )}
      <Form<TForm> form={form} name="pool" layout="vertical" data-testid="pool-form">
        <Form.Item name="name" label={t('form.name')} required rules={[zodRule(fields.name)]}>
          <Input maxLength={64} />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="kind" label={t('form.kind')} rules={[zodRule(fields.kind)]}>
              <Select options={INVENTORY_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="protocol" label={t('form.protocol')} rules={[zodRule(fields.protocol)]}>
              <Select options={POOL_PROTOCOLS.map((p) => ({ value: p, label: t(`protocols.${p}`) }))} />
            </Form.Item>
          </Col>
        </Row>
        <EndpointsField />
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="username"
              label={t('form.username')}
              required
              rules={[zodRule(fields.username), usernameRule]}
            >
              <Input maxLength={128} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="password"
              label={t('form.password')}
              required={!pool}
              rules={passwordRules}
              extra={
                <Typography.Text type="secondary">
                  {pool ? t('form.passwordKeep') : t('form.passwordNew')}
                </Typography.Text>
              }
            >
              <Input.Password maxLength={256} autoComplete="new-password" visibilityToggle={false} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="username_template"
          label={t('form.template')}
          required
          extra={t('form.templateHint')}
          rules={[zodRule(fields.username_template), templateRule]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item name="area_case" label={t('form.areaCase')} rules={[zodRule(fields.area_case)]}>
          <Select options={POOL_AREA_CASES.map((c) => ({ value: c, label: t(`areaCases.${c}`) }))} />
        </Form.Item>
        <TemplatePreview
          template={watched.template}
          user={watched.user}
          areaCase={watched.areaCase}
          mapping={detail.data?.area_mapping ?? []}
        />
        <Row gutter={12}>
          <Col xs={12} sm={6}>
            <Form.Item name="priority" label={t('form.priority')} rules={[zodRule(fields.priority)]}>
              <InputNumber<number> min={0} max={1000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="weight" label={t('form.weight')} rules={[zodRule(fields.weight)]}>
              <InputNumber<number> min={1} max={1000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="max_connections"
              label={t('form.maxConnections')}
              rules={[zodRule(fields.max_connections)]}
            >
              <InputNumber<number> min={1} max={100_000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="cost_yuan"
              label={t('form.cost')}
              rules={[
                { required: true, type: 'number', min: 0, message: validationMessage('poolCostRange', getLanguage()) },
              ]}
            >
              <InputNumber<number> min={0} max={1_000_000} precision={2} prefix="¥" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            {/* No maxLength or min/max: a value out of bounds is refused with the reason, never silently cut. */}
            <Form.Item
              name="exit_ip_header"
              label={t('form.exitIpHeader')}
              extra={t('form.exitIpHeaderHint')}
              rules={[zodRule(fields.exit_ip_header)]}
            >
              <Input placeholder="x-exit-ip" autoComplete="off" style={{ fontFamily: 'monospace' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="session_idle_minutes"
              label={t('form.sessionIdle')}
              extra={t('form.sessionIdleHint')}
              rules={[zodRule(fields.session_idle_minutes)]}
            >
              <InputNumber<number> suffix={t('form.minutes')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Drawer>
  );
}
