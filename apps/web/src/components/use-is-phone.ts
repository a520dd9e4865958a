import { Grid } from 'antd';

/**
 * True on a narrow screen, below antd's md breakpoint (768 px): the layouts
 * show their menu in a drawer, tables scroll inside themselves, forms stack.
 * Only a breakpoint that answers counts (xs or sm matching, md not), so a
 * first render, or a test environment whose media queries match nothing,
 * gets the wide layout.
 */
export function useIsPhone(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === false && (screens.xs === true || screens.sm === true);
}
