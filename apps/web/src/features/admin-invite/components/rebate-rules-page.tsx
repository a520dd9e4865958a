import { Button, Card, Empty, Flex, Form, InputNumber, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  MAX_REBATE_RATE_PERCENT,
  MAX_REBATE_RULE_YUAN,
  formatYuan,
  type TRebateConfigInput,
  type TRebateConfigVersion,
} from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { formatDateTimeSeconds } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { markServerIssues } from '../../../lib/server-issues';
import { usePaging } from '../../../lib/use-paging';
import { useRebateConfigVersions, useUpdateRebateConfig } from '../api/admin-invite';

const FIELDS = ['rate', 'min_charge', 'max_rebate'] as const;

/** /admin/invite/rules: the rules in force, a form for a new version (effective from now), and every version. */
export default function RebateRulesPage() {
  const { t } = useTranslation('admin-invite');
  const isPhone = useIsPhone();
  const [form] = Form.useForm<TRebateConfigInput>();
  const paging = usePaging(20);
  const versions = useRebateConfigVersions({ page: paging.page, page_size: paging.pageSize });
  const update = useUpdateRebateConfig();
  const current = versions.data?.records.find((v) => v.is_current);

  const save = async (values: TRebateConfigInput) => {
    try {
      const saved = await update.mutateAsync(values);
      showSuccess(t('saved', { version: saved.version }));
    } catch (error) {
      markServerIssues(form, error, FIELDS, {});
    }
  };
  // Rules move money from the next top-up on: they take effect only once the operator confirms what they will do.
  const confirmSave = (values: TRebateConfigInput) =>
    confirmAction({
      title: t('confirmTitle'),
      content: t('confirmText', {
        rate: values.rate,
        min: formatYuan(values.min_charge),
        max: formatYuan(values.max_rebate),
        version: (versions.data?.total ?? 0) + 1,
      }),
      okText: t('confirmOk'),
      onOk: () => save(values),
    });
  // Out of range is refused with the bounds (never clamped on blur behind the operator's back).
  const yuanRules = [
    { required: true, message: t('required') },
    {
      type: 'number' as const,
      min: 0,
      max: MAX_REBATE_RULE_YUAN,
      message: t('amountRange', { min: formatYuan(0), max: formatYuan(MAX_REBATE_RULE_YUAN) }),
    },
  ];

  const columns: TableColumnsType<TRebateConfigVersion> = [
    {
      title: t('columns.version'),
      dataIndex: 'version',
      render: (v: number, r) => (r.is_current ? <Tag color="blue">{t('current', { version: v })}</Tag> : v),
    },
    { title: t('columns.rate'), dataIndex: 'rate', render: (v: number) => `${v}%` },
    { title: t('columns.minCharge'), dataIndex: 'min_charge', render: (v: number) => formatYuan(v) },
    { title: t('columns.maxRebate'), dataIndex: 'max_rebate', render: (v: number) => formatYuan(v) },
    { title: t('columns.effectiveAt'), dataIndex: 'effective_at', render: formatDateTimeSeconds },
    { title: t('columns.createdBy'), dataIndex: 'created_by', render: (v: string | null) => v ?? t('defaults') },
  ];

  const yuanInput = <InputNumber<number> precision={2} step={1} prefix="¥" style={{ width: 180 }} />;
  return (
    <Flex vertical gap={16}>
      <Card title={t('formTitle')}>
        {current && (
          <Typography.Paragraph data-testid="current-rules">
            {t('inForce', {
              version: current.version,
              rate: current.rate,
              min: formatYuan(current.min_charge),
              max: formatYuan(current.max_rebate),
            })}
          </Typography.Paragraph>
        )}
        <Form<TRebateConfigInput>
          form={form}
          layout={isPhone ? 'vertical' : 'inline'}
          onFinish={confirmSave}
          initialValues={
            current ? { rate: current.rate, min_charge: current.min_charge, max_rebate: current.max_rebate } : undefined
          }
          key={current?.version ?? 0}
        >
          <Form.Item
            name="rate"
            label={t('fields.rate')}
            rules={[
              { required: true, message: t('required') },
              {
                type: 'number',
                min: 0,
                max: MAX_REBATE_RATE_PERCENT,
                message: t('rateRange', { max: MAX_REBATE_RATE_PERCENT }),
              },
            ]}
          >
            <InputNumber<number> precision={2} step={0.5} suffix="%" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="min_charge" label={t('fields.minCharge')} rules={yuanRules}>
            {yuanInput}
          </Form.Item>
          <Form.Item name="max_rebate" label={t('fields.maxRebate')} rules={yuanRules}>
            {yuanInput}
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              {t('save')}
            </Button>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
      </Card>
      <Card title={t('historyTitle')}>
        <Table<TRebateConfigVersion>
          rowKey="version"
          scroll={{ x: 'max-content' }}
          columns={columns}
          dataSource={versions.data?.records ?? []}
          loading={versions.isFetching}
          locale={{ emptyText: <Empty description={t('emptyVersions')} /> }}
          pagination={paging.pagination(versions.data?.total, { showSizeChanger: undefined, showTotal: undefined })}
        />
      </Card>
    </Flex>
  );
}
