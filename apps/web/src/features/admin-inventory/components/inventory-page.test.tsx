import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminInventoryRoutes } from '../routes';

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
});

describe('inventory import (operator area)', { timeout: 120_000 }, () => {
  it('checks pasted lines and shows the bad ones by number, then imports a good file as data-center exits', async () => {
    api.on('adminInventoryImport', (req) => {
      const body = req.json as { csv: string; dry_run: boolean };
      if (body.csv.includes('nonsense')) return { valid: 1, imported: 0, duplicates: 0, errors: [{ line: 2, message: 'expected host:port' }] };
      return body.dry_run ? { valid: 1, imported: 0, duplicates: 0, errors: [] } : { valid: 1, imported: 1, duplicates: 0, errors: [] };
    });
    renderAt('/admin/inventory', { featureRoutes: adminInventoryRoutes });
    fireEvent.change(await screen.findByLabelText('Upstream proxies (CSV)'), { target: { value: '10.0.0.1:3128,us\nnonsense' } });
    fireEvent.click(screen.getByTestId('inventory-check'));
    const errors = await screen.findByTestId('inventory-errors');
    expect(within(errors).getByText('1 line(s) cannot be imported; nothing was imported')).toBeTruthy();
    expect(within(errors).getByText('expected host:port')).toBeTruthy();
    expect(api.requestsTo('adminInventoryImport')[0].json).toEqual({ csv: '10.0.0.1:3128,us\nnonsense', kind: 'residential', dry_run: true });

    fireEvent.click(screen.getByText('Data center'));
    fireEvent.change(screen.getByLabelText('Upstream proxies (CSV)'), { target: { value: '10.0.0.1:3128,us' } });
    fireEvent.click(screen.getByTestId('inventory-import'));
    await waitFor(() => expect(shownMessages('success')).toContain('Imported 1 exit(s); 0 already known'));
    expect(api.requestsTo('adminInventoryImport').at(-1)!.json).toEqual({ csv: '10.0.0.1:3128,us', kind: 'datacenter', dry_run: false });
  });
});
