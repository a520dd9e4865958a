import type { ReactNode } from 'react';
import { Button, DatePicker, Flex, Form, Select } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../components/use-is-phone';
import { dayRangeToQuery, type TDayRange } from '../utils/date-range';

/** What the bar applies: the chosen value of its select, and a range of days (`to` excluded). */
export type TFilterBarValues<T extends string> = { choice?: T; from?: string; to?: string };

type TFormValues<T> = { choice?: T; dates?: TDayRange };

/** A list's filters: one select (status, reason...) and a range of days, applied as they change, with Search and Reset. */
export function FilterBar<T extends string>(props: {
  /** Form name, which also keeps the fields' ids apart from another bar's. */
  name: string;
  ariaLabel: string;
  choiceLabel: string;
  choices: { value: T; label: string }[];
  onApply: (values: TFilterBarValues<T>) => void;
  /** Shown at the end of the bar (e.g. an export button). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation('payments');
  const isPhone = useIsPhone();
  const [form] = Form.useForm<TFormValues<T>>();

  const apply = () => {
    const values = form.getFieldsValue();
    props.onApply({ choice: values.choice, ...dayRangeToQuery(values.dates) });
  };

  const reset = () => {
    form.resetFields();
    apply();
  };

  return (
    <Flex justify="space-between" gap={8} wrap>
      <Form
        form={form}
        name={props.name}
        layout={isPhone ? 'vertical' : 'inline'}
        onFinish={apply}
        style={{ rowGap: 8 }}
        aria-label={props.ariaLabel}
      >
        <Form.Item name="choice" label={props.choiceLabel}>
          <Select
            allowClear
            placeholder={t('bills.all')}
            style={{ width: 150 }}
            options={props.choices}
            onChange={apply}
          />
        </Form.Item>
        <Form.Item name="dates" label={t('bills.dates')}>
          <DatePicker.RangePicker onChange={apply} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item>
          <Flex gap={8}>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('bills.search')}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={reset}>
              {t('bills.reset')}
            </Button>
          </Flex>
        </Form.Item>
      </Form>
      {props.extra}
    </Flex>
  );
}
