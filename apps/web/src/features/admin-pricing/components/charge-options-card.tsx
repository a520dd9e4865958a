import { useState } from 'react';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Drawer,
  Empty,
  Flex,
  Form,
  InputNumber,
  List,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CHARGE_OPTIONS_MAX,
  formatFen,
  yuanToFen,
  type TAdminChargeOptions,
  type TChargeOptionVersion,
  type TPayMethodState,
  type TVersionStatus,
} from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { useChargeOptionVersions, useCreateChargeOptionSet, useSetPayMethod } from '../api/admin-pricing';
import { EffectiveTimeField, effectiveAtOf, type TEffectiveValues } from './effective-time-field';
import { VersionStatusTag, markIssues } from './price-dialogs';

type TOptionsForm = TEffectiveValues & { options: { amount?: number; gift?: number }[] };

function optionsText(version: TChargeOptionVersion, line: (amount: string, gift: string) => string): string {
  return version.options.map((o) => line(formatFen(o.amount_fen), formatFen(o.gift_fen))).join('; ');
}

/** The versions of the option set, newest first. */
function OptionHistoryDrawer(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin-pricing');
  const paging = usePaging(10);
  const versions = useChargeOptionVersions({ page: paging.page, pageSize: paging.pageSize, enabled: props.open });
  const columns: TableColumnsType<TChargeOptionVersion> = [
    { title: t('columns.version'), dataIndex: 'version' },
    {
      title: t('columns.options'),
      key: 'options',
      render: (_, v) => optionsText(v, (amount, gift) => t('optionLine', { amount, gift })),
    },
    { title: t('columns.effectiveAt'), dataIndex: 'effective_at', render: (v: string) => effectiveText(v, t) },
    { title: t('columns.status'), dataIndex: 'status', render: (v: TVersionStatus) => <VersionStatusTag status={v} /> },
    { title: t('columns.createdBy'), dataIndex: 'created_by', render: (v: string | null) => v ?? t('installDefaults') },
  ];
  return (
    <Drawer open={props.open} onClose={props.onClose} size="large" title={t('optionsHistoryTitle')}>
      <Table<TChargeOptionVersion>
        rowKey="version"
        scroll={{ x: 'max-content' }}
        size="small"
        columns={columns}
        dataSource={versions.data?.records ?? []}
        loading={versions.isFetching}
        locale={{ emptyText: <Empty /> }}
        pagination={paging.pagination(versions.data?.total)}
      />
    </Drawer>
  );
}

/** The option set editor: amounts and gifts in yuan, in display order, saved as a new version from now or a chosen time. */
function OptionSetEditor(props: { state: TAdminChargeOptions }) {
  const { t } = useTranslation('admin-pricing');
  const [form] = Form.useForm<TOptionsForm>();
  const create = useCreateChargeOptionSet();
  const { current } = props.state;
  const initial = (current?.options ?? []).map((o) => ({ amount: o.amount_fen / 100, gift: o.gift_fen / 100 }));
  const save = async (values: TOptionsForm) => {
    try {
      const saved = await create.mutateAsync({
        options: values.options.map((o) => ({
          amount_fen: yuanToFen(o.amount ?? 0),
          gift_fen: yuanToFen(o.gift ?? 0),
        })),
        effective_at: effectiveAtOf(values),
      });
      showSuccess(
        saved.status === 'scheduled'
          ? t('savedLater', { version: saved.version, time: formatDateTimeMinutes(saved.effective_at) })
          : t('savedNow', { version: saved.version }),
      );
    } catch (error) {
      const paths: Record<string, (string | number)[]> = { effective_at: ['at'] };
      values.options.forEach((_, i) => {
        paths[`options.${i}.amount_fen`] = ['options', i, 'amount'];
        paths[`options.${i}.gift_fen`] = ['options', i, 'gift'];
      });
      markIssues(form, error, paths);
    }
  };
  return (
    <Form<TOptionsForm>
      form={form}
      layout="vertical"
      key={current?.version ?? 0}
      initialValues={{ options: initial, when: 'now' }}
      onFinish={(v) => void save(v)}
    >
      <Form.List name="options">
        {(fields, { add, remove, move }) => (
          <>
            {fields.map((field, index) => (
              <Space key={field.key} align="start" wrap data-testid="option-row">
                <Form.Item
                  name={[field.name, 'amount']}
                  label={t('optionAmount')}
                  rules={[{ required: true, message: t('optionAmountRequired') }]}
                >
                  <InputNumber<number> min={0.01} precision={2} prefix="¥" style={{ width: 160 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'gift']} label={t('optionGift')} initialValue={0}>
                  <InputNumber<number> min={0} precision={2} prefix="¥" style={{ width: 160 }} />
                </Form.Item>
                <Form.Item label=" ">
                  <Space>
                    <Button
                      icon={<ArrowUpOutlined />}
                      aria-label={t('optionUp')}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1)}
                    />
                    <Button
                      icon={<ArrowDownOutlined />}
                      aria-label={t('optionDown')}
                      disabled={index === fields.length - 1}
                      onClick={() => move(index, index + 1)}
                    />
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('optionRemove')}
                      danger
                      disabled={fields.length === 1}
                      onClick={() => remove(field.name)}
                    />
                  </Space>
                </Form.Item>
              </Space>
            ))}
            <Form.Item>
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= CHARGE_OPTIONS_MAX}
                onClick={() => add({ gift: 0 })}
              >
                {t('optionAdd')}
              </Button>
            </Form.Item>
          </>
        )}
      </Form.List>
      <EffectiveTimeField />
      <Button type="primary" htmlType="submit" loading={create.isPending}>
        {t('optionsSave')}
      </Button>
    </Form>
  );
}

/** When a version took effect; the installation's first version is in effect since the install, not since 1970. */
function effectiveText(iso: string, t: (key: string) => string): string {
  return Date.parse(iso) <= 0 ? t('sinceInstall') : formatDateTimeMinutes(iso);
}

/**
 * One switch per payment method. A method without provider settings on the server is not offered whatever its
 * stored switch says: it shows off and cannot be switched until it is configured.
 */
function MethodSwitches(props: { methods: TPayMethodState[] }) {
  const { t } = useTranslation('admin-pricing');
  const setMethod = useSetPayMethod();
  const toggle = async (method: TPayMethodState, isEnabled: boolean) => {
    const saved = await setMethod.mutateAsync({ method: method.method, is_enabled: isEnabled }).catch(() => null);
    if (saved)
      showSuccess(
        t('methodSwitched', {
          method: t(`methods.${saved.method}`),
          state: t(saved.is_enabled ? 'methodOn' : 'methodOff'),
        }),
      );
  };
  return (
    <List<TPayMethodState>
      dataSource={props.methods}
      renderItem={(m) => (
        <List.Item
          data-testid={`method-${m.method}`}
          extra={
            <Switch
              checked={m.is_configured && m.is_enabled}
              aria-label={t(`methods.${m.method}`)}
              checkedChildren={t('methodOn')}
              unCheckedChildren={t('methodOff')}
              disabled={!m.is_configured}
              loading={setMethod.isPending && setMethod.variables?.method === m.method}
              onChange={(checked) => void toggle(m, checked)}
            />
          }
        >
          <List.Item.Meta
            title={t(`methods.${m.method}`)}
            description={
              m.is_configured ? (
                <Tag color={m.is_offered ? 'success' : 'default'}>{t(m.is_offered ? 'offered' : 'notOffered')}</Tag>
              ) : (
                <Typography.Text type="warning">{t('notConfigured')}</Typography.Text>
              )
            }
          />
        </List.Item>
      )}
    />
  );
}

/** Recharge options: the set in effect and scheduled, its editor, its history, the fixed fee and the method switches. */
export function ChargeOptionsCard(props: { state: TAdminChargeOptions | undefined; loading: boolean }) {
  const { t } = useTranslation('admin-pricing');
  const [isHistoryOpen, setHistoryOpen] = useState(false);
  const { state } = props;
  return (
    <Flex vertical gap={16}>
      <Card
        title={t('optionsTitle')}
        loading={props.loading && !state}
        extra={
          <Button type="link" onClick={() => setHistoryOpen(true)}>
            {t('optionsHistory')}
          </Button>
        }
      >
        {state && (
          <Flex vertical gap={12}>
            <Typography.Text data-testid="options-in-effect">
              {state.current
                ? t('optionsInEffect', {
                    version: state.current.version,
                    time: effectiveText(state.current.effective_at, t),
                  })
                : t('optionsNone')}
            </Typography.Text>
            {state.scheduled.map((v) => (
              <Alert
                key={v.version}
                type="info"
                showIcon
                title={t('optionsScheduled', { version: v.version, time: formatDateTimeMinutes(v.effective_at) })}
                description={optionsText(v, (amount, gift) => t('optionLine', { amount, gift }))}
              />
            ))}
            <Typography.Text type="secondary">{t('optionsHint')}</Typography.Text>
            <Typography.Text type="secondary">
              {t('bounds', { min: formatFen(state.min_amount_fen), max: formatFen(state.max_amount_fen) })}
            </Typography.Text>
            <OptionSetEditor state={state} />
            <Typography.Text data-testid="fee">
              {t('fee', { percent: state.fee.percent, fixed: formatFen(state.fee.fixed_fen) })}
            </Typography.Text>
          </Flex>
        )}
      </Card>
      <Card title={t('methodsTitle')} loading={props.loading && !state}>
        <Typography.Paragraph type="secondary">{t('methodsHint')}</Typography.Paragraph>
        {state && <MethodSwitches methods={state.methods} />}
      </Card>
      <OptionHistoryDrawer open={isHistoryOpen} onClose={() => setHistoryOpen(false)} />
    </Flex>
  );
}
