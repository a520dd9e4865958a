import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';

const DEFAULT_PAGE_SIZE = 10;

/** Page and page size of a list and the table's pagination for them; a new page size starts again at page 1. */
export function usePaging() {
  const { t } = useTranslation('charge');
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  return {
    page: paging.page,
    pageSize: paging.pageSize,
    /** Back to page 1 (the filters changed). */
    toFirstPage: () => setPaging((p) => ({ ...p, page: 1 })),
    /** The table's pagination for a list of `total` records. */
    pagination: (total: number | undefined): TablePaginationConfig => ({
      current: paging.page,
      pageSize: paging.pageSize,
      total: total ?? 0,
      showSizeChanger: true,
      showTotal: (count) => t('bills.total', { total: count }),
      onChange: (page, pageSize) => setPaging({ page: pageSize === paging.pageSize ? page : 1, pageSize }),
    }),
  };
}
