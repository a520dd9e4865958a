import { Flex, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import type { TScreenConfig } from '../utils/screens';
import { useProxyColumns } from './proxy-columns';
import type { TRowHandlers } from './row-actions';

/** The list's table: the columns of spec section 3, row selection and paging. */
export function ProxyTable(
  props: {
    screen: TScreenConfig;
    records: TProxyToken[];
    total: number;
    page: number;
    pageSize: number;
    isLoading: boolean;
    /** Filters are applied: an empty list means nothing matched, not that nothing was bought. */
    isFiltered: boolean;
    selectedIds: number[];
    onSelect: (ids: number[], rows: TProxyToken[]) => void;
    onPage: (page: number, pageSize: number) => void;
  } & TRowHandlers,
) {
  const { t } = useTranslation('proxies');
  const columns = useProxyColumns(props.screen, props);

  return (
    <Table<TProxyToken>
      rowKey="token_id"
      size="middle"
      columns={columns}
      dataSource={props.records}
      loading={props.isLoading}
      scroll={{ x: 'max-content' }}
      rowSelection={{
        selectedRowKeys: props.selectedIds,
        preserveSelectedRowKeys: true,
        onChange: (keys, rows) => props.onSelect(keys as number[], rows.filter(Boolean)),
      }}
      pagination={{
        current: props.page,
        pageSize: props.pageSize,
        total: props.total,
        showSizeChanger: true,
        showTotal: (total) => t('table.total', { total }),
        onChange: props.onPage,
      }}
      locale={{
        emptyText: (
          <Flex vertical align="center" style={{ padding: 16 }}>
            {props.isFiltered ? t('table.noMatch') : t('table.empty')}
          </Flex>
        ),
      }}
    />
  );
}
