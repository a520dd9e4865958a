import { Button, DatePicker, Flex, Form, Input, Select } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ROUTES, type TRouteName } from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import type { TAuditFilters } from '../api/audit-list';

type TRange = [Dayjs | null, Dayjs | null] | null;
type TFilterValues = { operator?: string; route?: string; target_id?: string; time?: TRange };

/** Operator calls that change data: the only ones the audit records (the contract's admin routes other than GET). */
export const AUDITED_ROUTE_NAMES: TRouteName[] = (Object.keys(ROUTES) as TRouteName[]).filter(
  (name) => ROUTES[name].auth === 'admin' && ROUTES[name].method !== 'GET',
);

/**
 * The filters as the list call takes them: empty fields left out, the
 * operator as an id (digits) or part of an e-mail, a day range as
 * [first day 00:00, day after the last 00:00).
 */
export function toAuditFilters(values: TFilterValues): TAuditFilters {
  const [start, end] = values.time ?? [null, null];
  const targetId = values.target_id?.trim();
  const operator = values.operator?.trim() ?? '';
  const isOperatorId = /^[1-9]\d{0,14}$/.test(operator);
  return {
    operator_id: isOperatorId ? Number(operator) : undefined,
    operator_email: operator && !isOperatorId ? operator : undefined,
    route: values.route || undefined,
    target_id: targetId || undefined,
    from: start ? start.startOf('day').toISOString() : undefined,
    to: end ? end.add(1, 'day').startOf('day').toISOString() : undefined,
  };
}

/** Filters of the audit list: operator (id or e-mail), action (route), target id, day range. */
export function AuditFilters(props: { onChange: (filters: TAuditFilters) => void }) {
  const isPhone = useIsPhone();
  const { t } = useTranslation('admin-audit');
  const [form] = Form.useForm<TFilterValues>();

  const apply = () => props.onChange(toAuditFilters(form.getFieldsValue()));
  const reset = () => {
    form.resetFields();
    apply();
  };

  return (
    <Form
      form={form}
      layout={isPhone ? 'vertical' : 'inline'}
      onFinish={apply}
      style={{ rowGap: 8, marginBottom: 16 }}
      aria-label={t('filters.label')}
    >
      <Form.Item name="operator" label={t('filters.operator')}>
        <Input
          allowClear
          maxLength={254}
          placeholder={t('filters.operatorHint')}
          style={{ width: 220 }}
          onPressEnter={apply}
        />
      </Form.Item>
      <Form.Item name="route" label={t('filters.route')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('filters.any')}
          style={{ width: 240 }}
          options={AUDITED_ROUTE_NAMES.map((name) => ({ value: name, label: name }))}
          onChange={apply}
        />
      </Form.Item>
      <Form.Item name="target_id" label={t('filters.targetId')}>
        <Input allowClear placeholder={t('filters.any')} style={{ width: 140 }} onPressEnter={apply} />
      </Form.Item>
      <Form.Item name="time" label={t('filters.time')}>
        <DatePicker.RangePicker onChange={apply} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('filters.search')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={reset}>
            {t('filters.reset')}
          </Button>
        </Flex>
      </Form.Item>
    </Form>
  );
}
