import { Alert, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TRenewPreview } from '@proxy/contract';
import { formatDateTimeSeconds } from '../../../lib/format';

type TItem = TRenewPreview['items'][number];

/**
 * The server's preview of a renewal: each proxy in the order the renewal
 * takes them with its price and new expiry, the total, and which proxies the
 * balance covers.
 */
export function RenewPreviewTable(props: { preview: TRenewPreview }) {
  const { t } = useTranslation('proxies');
  const { preview } = props;
  const renewable = preview.items.filter((i) => i.is_renewable).length;
  return (
    <section aria-label={t('renew.previewTable')} data-testid="renew-preview">
      <Table<TItem>
        size="small"
        rowKey="token_id"
        pagination={false}
        scroll={{ y: 240 }}
        dataSource={preview.items}
        columns={[
          { title: t('fields.username'), key: 'proxy', render: (_, i) => i.username || `#${i.token_id}` },
          {
            title: t('renew.newExpiry'),
            key: 'expiry',
            render: (_, i) => (i.new_expires_at ? formatDateTimeSeconds(i.new_expires_at) : '-'),
          },
          {
            title: t('price.total'),
            key: 'price',
            align: 'right',
            render: (_, i) => (i.is_renewable ? formatYuan(i.price) : '-'),
          },
          {
            title: t('renew.coverage'),
            key: 'covered',
            render: (_, i) =>
              !i.is_renewable ? (
                <Tag>{t('renew.notRenewable')}</Tag>
              ) : i.is_covered ? (
                <Tag color="green">{t('renew.covered')}</Tag>
              ) : (
                <Tag color="red">{t('renew.notCovered')}</Tag>
              ),
          },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              <Typography.Text strong>{t('renew.previewTotal', { count: renewable })}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              <Typography.Text strong data-testid="renew-preview-total">
                {formatYuan(preview.total)}
              </Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} />
          </Table.Summary.Row>
        )}
      />
      {preview.covered_count < renewable && (
        <Alert
          style={{ marginTop: 8 }}
          type="warning"
          showIcon
          title={t('renew.coversSome', {
            covered: preview.covered_count,
            total: renewable,
            amount: formatYuan(preview.covered_total),
            balance: formatYuan(preview.balance),
          })}
        />
      )}
    </section>
  );
}
