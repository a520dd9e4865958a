import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readValue } from '../../../lib/storage';
import { hiddenColumnsStorageName } from '../hooks/use-column-choice';
import { answerProxyScreen, renderStatic } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

/** Content width of a list at 1440 px: the window less the 232 px side menu, the layout's 16 px padding and the card's 24 px padding, each side. */
const CONTENT_WIDTH_1440 = 1440 - 232 - 2 * 16 - 2 * 24;

function headers(): string[] {
  return [...document.querySelectorAll('.ant-table-thead th')]
    .map((th) => th.textContent?.trim() ?? '')
    .filter(Boolean);
}

async function openChooser() {
  fireEvent.click(await screen.findByRole('button', { name: /Choose columns/ }));
  return screen.findByTestId('column-chooser');
}

describe('proxy list columns', () => {
  it('shows expiry, status, auto-renew and the credentials by default, in widths that fit a 1440 px screen', async () => {
    renderStatic();
    await screen.findByText('user1');
    expect(headers()).toEqual([
      'Remark',
      'Type',
      'Protocol',
      'Area',
      'Expires',
      'Status',
      'Auto-renew',
      'Credentials',
      'Actions',
    ]);
    // The credentials cell holds host:port, the username and the hidden password of its row.
    const credentials = screen.getByTestId('credentials-1');
    expect(within(credentials).getByText('127.0.0.1:7777')).toBeTruthy();
    expect(within(credentials).getByText('user1')).toBeTruthy();
    expect(within(credentials).getByLabelText('Show password user1')).toBeTruthy();
    expect(within(credentials).queryByText('secret-pass-1')).toBeNull();
    // The table's columns (row selection included) add up to no more than the content area.
    const widths = [...document.querySelectorAll<HTMLTableColElement>('.ant-table colgroup col')].map(
      (col) => parseFloat(col.style.width) || 0,
    );
    expect(widths.length).toBeGreaterThan(0);
    expect(widths.reduce((sum, width) => sum + width, 0)).toBeLessThanOrEqual(CONTENT_WIDTH_1440);
  });

  it('lets the user choose columns, remembers the choice per screen, and keeps the key columns', async () => {
    const first = renderStatic();
    await screen.findByText('user1');
    const chooser = await openChooser();
    // Credentials and actions cannot be hidden.
    expect((within(chooser).getByLabelText('Credentials') as HTMLInputElement).disabled).toBe(true);
    expect((within(chooser).getByLabelText('Actions') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(chooser).getByLabelText('Area'));
    fireEvent.click(within(chooser).getByLabelText('Created'));
    await waitFor(() =>
      expect(headers()).toEqual([
        'Remark',
        'Type',
        'Protocol',
        'Created',
        'Expires',
        'Status',
        'Auto-renew',
        'Credentials',
        'Actions',
      ]),
    );
    expect(readValue<string[]>('local', hiddenColumnsStorageName('static'))).toEqual(['area', 'usage']);
    // Another screen keeps its own choice.
    expect(readValue('local', hiddenColumnsStorageName('dynamic'))).toBeNull();

    // Opened again (a reload): the same columns.
    first.unmount();
    renderStatic();
    await screen.findByText('user1');
    expect(headers()).toEqual([
      'Remark',
      'Type',
      'Protocol',
      'Created',
      'Expires',
      'Status',
      'Auto-renew',
      'Credentials',
      'Actions',
    ]);
  });
});
