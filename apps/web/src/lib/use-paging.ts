import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';

/** Page and page size of a list and the table's pagination for them (with its total); a new page size starts again at page 1. */
export function usePaging(initialPageSize = 10) {
  const { t } = useTranslation('common');
  const [paging, setPaging] = useState({ page: 1, pageSize: initialPageSize });
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
      showTotal: (count) => t('pagination.total', { total: count }),
      onChange: (page, pageSize) => setPaging({ page: pageSize === paging.pageSize ? page : 1, pageSize }),
    }),
  };
}
