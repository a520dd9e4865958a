import { Flex, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import type { TPaging } from '../../../lib/use-paging';
import type { TProxyColumnKey } from '../hooks/use-column-choice';
import type { TScreenConfig } from '../utils/screens';
import { useProxyColumns } from './proxy-columns';
import type { TRowHandlers } from './row-actions';

/** Width of the row selection column, px. */
const SELECTION_WIDTH = 32;

/** The list's table: the columns of spec section 3 the user chose (remembered per screen), row selection and paging. */
export function ProxyTable(
  props: {
    screen: TScreenConfig;
    /** The columns the user chose to see (useColumnChoice). */
    visibleColumns: TProxyColumnKey[];
    records: TProxyToken[];
    total: number;
    /** The list's page and page size. */
    paging: TPaging;
    isLoading: boolean;
    /** Filters are applied: an empty list means nothing matched, not that nothing was bought. */
    isFiltered: boolean;
    selectedIds: number[];
    onSelect: (ids: number[], rows: TProxyToken[]) => void;
  } & TRowHandlers,
) {
  const { t } = useTranslation('proxies');
  const columns = useProxyColumns(props.screen, props, props.visibleColumns);
  const tableWidth = columns.reduce((sum, column) => sum + (Number(column.width) || 0), SELECTION_WIDTH);

  return (
    <Table<TProxyToken>
      rowKey="token_id"
      size="middle"
      columns={columns}
      dataSource={props.records}
      loading={props.isLoading}
      // Fixed layout, as wide as its columns: each column takes its own width (long text is cut, never widens it),
      // so the default set fits a 1440 px screen; more columns than the screen holds scroll sideways.
      tableLayout="fixed"
      scroll={{ x: tableWidth }}
      rowSelection={{
        columnWidth: SELECTION_WIDTH,
        selectedRowKeys: props.selectedIds,
        preserveSelectedRowKeys: true,
        onChange: (keys, rows) => props.onSelect(keys as number[], rows.filter(Boolean)),
      }}
      pagination={props.paging.pagination(props.total, { showTotal: (total) => t('table.total', { total }) })}
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
