import { useState, type ReactNode } from 'react';
import { Button, Flex, Spin, theme } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/*
 * Small read-only tables (the dashboard's list prices, proxies about to expire, top domains) as a
 * plain HTML table in antd's look. antd's Table brought its pagination, select,
 * tree and filter menus along: ~77 KB of gzipped JavaScript on the home page
 * for eight rows at most.
 */

/** One column: its header and how a row fills its cell. */
export type TLightColumn<T> = {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  isNowrap?: boolean;
  width?: number;
};

type TLightTableProps<T> = {
  columns: TLightColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  size?: 'small' | 'middle';
  isLoading?: boolean;
  /** Shown in place of the rows when there are none. */
  emptyText?: ReactNode;
  /** Rows per page; a pager shows when there is more than one page. */
  pageSize?: number;
  /** The table scrolls sideways inside its card below this width. */
  minWidth?: number;
  /** Title of the card around the table: the scroll box is a keyboard-reachable region named after it (as the shell does for antd's tables). */
  title: string;
};

/** A small read-only table in antd's look, with a pager when the rows fill more than one page. */
export function LightTable<T>({
  columns,
  rows,
  rowKey,
  size = 'middle',
  isLoading,
  emptyText,
  pageSize,
  minWidth,
  title,
}: TLightTableProps<T>) {
  const { token } = theme.useToken();
  const { t } = useTranslation(['dashboard', 'common']);
  const [page, setPage] = useState(1);
  const pageCount = pageSize ? Math.max(1, Math.ceil(rows.length / pageSize)) : 1;
  const current = Math.min(page, pageCount);
  const shown = pageSize ? rows.slice((current - 1) * pageSize, current * pageSize) : rows;
  const padding =
    size === 'small' ? `${token.paddingXS}px ${token.paddingXS}px` : `${token.paddingSM}px ${token.paddingXS}px`;
  const cell = {
    padding,
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
    textAlign: 'start' as const,
    verticalAlign: 'top' as const,
  };

  return (
    <Spin spinning={Boolean(isLoading)}>
      <div role="region" aria-label={t('common:table.regionOf', { title })} tabIndex={0} style={{ overflowX: 'auto' }}>
        <table
          style={{
            width: '100%',
            minWidth,
            borderCollapse: 'collapse',
            fontSize: token.fontSize,
            color: token.colorText,
          }}
        >
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  style={{
                    ...cell,
                    width: column.width,
                    background: token.colorFillAlter,
                    fontWeight: token.fontWeightStrong,
                    whiteSpace: 'nowrap',
                  }}
                >
                  {column.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key} style={{ ...cell, whiteSpace: column.isNowrap ? 'nowrap' : undefined }}>
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))}
            {!shown.length && !isLoading && (
              <tr>
                <td
                  colSpan={columns.length}
                  style={{ ...cell, textAlign: 'center', color: token.colorTextDescription, padding: token.paddingLG }}
                >
                  {emptyText}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {pageCount > 1 && (
        <Flex justify="end" align="center" gap={8} style={{ marginTop: token.marginSM }}>
          <Button
            size="small"
            icon={<LeftOutlined />}
            aria-label={t('dashboard:pager.previous')}
            disabled={current <= 1}
            onClick={() => setPage(current - 1)}
          />
          <span aria-live="polite">
            {current} / {pageCount}
          </span>
          <Button
            size="small"
            icon={<RightOutlined />}
            aria-label={t('dashboard:pager.next')}
            disabled={current >= pageCount}
            onClick={() => setPage(current + 1)}
          />
        </Flex>
      )}
    </Spin>
  );
}
