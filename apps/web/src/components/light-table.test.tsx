import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../test/render';
import { LightTable } from './light-table';

type TRow = { id: number; name: string };
const ROWS: TRow[] = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
const COLUMNS = [
  { key: 'id', title: 'No.', render: (r: TRow) => r.id },
  { key: 'name', title: 'Name', render: (r: TRow) => r.name },
];

describe('light table', () => {
  it('is a named, keyboard-reachable region with a header row and pages of rows', () => {
    renderAt('/', <LightTable title="Rows" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} pageSize={5} />);
    const region = screen.getByRole('region', { name: 'Table: Rows' });
    expect(region.tabIndex).toBe(0);
    expect(
      within(region)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['No.', 'Name']);
    const bodyRows = () => within(region).getAllByRole('row').slice(1);
    expect(bodyRows().map((row) => row.textContent)).toEqual(['1row 1', '2row 2', '3row 3', '4row 4', '5row 5']);
    expect(screen.getByText('1 / 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous page' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(bodyRows().map((row) => row.textContent)).toEqual(['6row 6', '7row 7']);
    expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the empty text without rows and no pager for one page', () => {
    renderAt(
      '/',
      <LightTable
        title="Rows"
        columns={COLUMNS}
        rows={[]}
        rowKey={(r) => r.id}
        pageSize={5}
        emptyText="Nothing here"
      />,
    );
    expect(screen.getByText('Nothing here')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
  });
});
