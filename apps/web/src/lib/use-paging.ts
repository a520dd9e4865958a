import { useCallback, useState } from 'react';
import type { PaginationProps } from 'antd';
import { useTranslation } from 'react-i18next';

/** Page sizes a list offers. */
const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/**
 * What a list changes in its pager, in antd's words: its own "total" text, a fixed page size (`showSizeChanger: false`),
 * hiding the pager on a single page. A key given as `undefined` is antd's default (`showTotal`: no total;
 * `showSizeChanger`: shown above 50 records).
 */
export type TPagingOptions = Pick<PaginationProps, 'showTotal' | 'showSizeChanger' | 'hideOnSinglePage'>;

/** The paging of one list (what usePaging answers). */
export type TPaging = ReturnType<typeof usePaging>;

/**
 * Page and page size of a server-paged list (a call that takes `page` and `page_size`) and the pager of its table or
 * list: "Total n", page sizes 10, 20, 50 and 100; a new page size starts again at page 1.
 */
export function usePaging(initialPageSize = 10) {
  const { t } = useTranslation('common');
  const [paging, setPaging] = useState({ page: 1, pageSize: initialPageSize });
  /** Back to page 1 (the filters changed). */
  const toFirstPage = useCallback(() => setPaging((p) => ({ ...p, page: 1 })), []);
  /** One page back, never before page 1 (the page shown was emptied). */
  const toPreviousPage = useCallback(() => setPaging((p) => ({ ...p, page: Math.max(1, p.page - 1) })), []);
  return {
    page: paging.page,
    pageSize: paging.pageSize,
    toFirstPage,
    toPreviousPage,
    /** The pager of a table or list of `total` records. */
    pagination: (total: number | undefined, options: TPagingOptions = {}): PaginationProps => ({
      current: paging.page,
      pageSize: paging.pageSize,
      total: total ?? 0,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZE_OPTIONS,
      showTotal: (count) => t('pagination.total', { total: count }),
      onChange: (page, pageSize) => setPaging({ page: pageSize === paging.pageSize ? page : 1, pageSize }),
      ...options,
    }),
  };
}
