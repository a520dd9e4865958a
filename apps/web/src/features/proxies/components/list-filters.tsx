import { Button, DatePicker, Flex, Form, Input, Select } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PROXY_STATUSES, type TProxyCategory, type TProxyStatus } from '@proxy/contract';
import { useAreaCountries } from '../../../entities/areas/area-countries';
import type { TTokenListFilters } from '../../../entities/proxies/token-list';
import { getLanguage } from '../../../lib/i18n';

type TRange = [Dayjs | null, Dayjs | null] | null;
type TFilterValues = { status?: TProxyStatus; country?: string; keyword?: string; created?: TRange; expires?: TRange };

function rangeStart(range: TRange): string | undefined {
  return range?.[0] ? range[0].startOf('day').toISOString() : undefined;
}

function rangeEnd(range: TRange): string | undefined {
  return range?.[1] ? range[1].endOf('day').toISOString() : undefined;
}

/** The list's filters: status (deleted included), country, keyword (remark or username), created and expiry ranges. */
export function ListFilters(props: { category: TProxyCategory; onChange: (filters: TTokenListFilters) => void }) {
  const { t } = useTranslation('proxies');
  const [form] = Form.useForm<TFilterValues>();
  const countries = useAreaCountries(props.category);
  const lang = getLanguage();

  const apply = () => {
    const values = form.getFieldsValue();
    props.onChange({
      status: values.status,
      country: values.country,
      keyword: values.keyword?.trim() || undefined,
      created_from: rangeStart(values.created ?? null),
      created_to: rangeEnd(values.created ?? null),
      expires_from: rangeStart(values.expires ?? null),
      expires_to: rangeEnd(values.expires ?? null),
    });
  };

  const reset = () => {
    form.resetFields();
    apply();
  };

  return (
    <Form form={form} layout="inline" onFinish={apply} style={{ rowGap: 8 }} aria-label={t('filters.label')}>
      <Form.Item name="status" label={t('filters.status')}>
        <Select
          allowClear
          placeholder={t('filters.all')}
          style={{ width: 120 }}
          options={PROXY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          onChange={apply}
        />
      </Form.Item>
      <Form.Item name="country" label={t('filters.country')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('filters.all')}
          style={{ width: 150 }}
          options={(countries.data ?? []).map((c) => ({
            value: c.id,
            label: (lang === 'zh' ? c.name_zh : c.name_en) || c.id.toUpperCase(),
          }))}
          onChange={apply}
        />
      </Form.Item>
      <Form.Item name="keyword" label={t('filters.keyword')}>
        <Input allowClear placeholder={t('filters.keywordPlaceholder')} style={{ width: 200 }} onPressEnter={apply} />
      </Form.Item>
      <Form.Item name="created" label={t('filters.created')}>
        <DatePicker.RangePicker allowEmpty={[true, true]} onChange={apply} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="expires" label={t('filters.expires')}>
        <DatePicker.RangePicker allowEmpty={[true, true]} onChange={apply} style={{ width: 240 }} />
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
