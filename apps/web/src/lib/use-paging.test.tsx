import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePaging } from './use-paging';

describe('usePaging', () => {
  it('turns pages, and starts again at page 1 on a new page size', () => {
    const { result } = renderHook(() => usePaging(20));
    expect([result.current.page, result.current.pageSize]).toEqual([1, 20]);
    act(() => result.current.pagination(100).onChange?.(3, 20));
    expect([result.current.page, result.current.pageSize]).toEqual([3, 20]);
    act(() => result.current.pagination(100).onChange?.(3, 50));
    expect([result.current.page, result.current.pageSize]).toEqual([1, 50]);
  });

  it('steps back one page, never before page 1, and back to page 1 when the filters change', () => {
    const { result } = renderHook(() => usePaging());
    act(() => result.current.pagination(100).onChange?.(4, 10));
    act(() => result.current.toPreviousPage());
    expect(result.current.page).toBe(3);
    act(() => result.current.toFirstPage());
    expect(result.current.page).toBe(1);
    act(() => result.current.toPreviousPage());
    expect(result.current.page).toBe(1);
  });

  it("gives the pager the list's page, total and sizes, and a list's own settings win", () => {
    const { result } = renderHook(() => usePaging());
    const pager = result.current.pagination(42);
    expect(pager).toMatchObject({
      current: 1,
      pageSize: 10,
      total: 42,
      showSizeChanger: true,
      pageSizeOptions: [10, 20, 50, 100],
    });
    expect(pager.showTotal?.(42, [1, 10])).toMatch(/42/);
    expect(result.current.pagination(undefined).total).toBe(0);
    const own = result.current.pagination(42, { showSizeChanger: false, showTotal: undefined, hideOnSinglePage: true });
    expect(own).toMatchObject({ showSizeChanger: false, showTotal: undefined, hideOnSinglePage: true });
  });
});
