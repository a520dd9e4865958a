import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ERRORS, type TInventoryNode, type TInventoryStockRow } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { adminInventoryRoutes } from '../routes';

const NODE: TInventoryNode = {
  id: 7,
  kind: 'residential',
  egress: 'http',
  host: '10.0.0.7',
  port: 3128,
  username: 'alice',
  has_password: true,
  country: 'us',
  state: 'ca',
  city: 'losangeles',
  state_name: 'California',
  city_name: 'Los Angeles',
  status: 'active',
  exit_ip: '203.0.113.7',
  health: 'up',
  latency_ms: 42,
  checked_at: '2026-05-01T10:00:00.000Z',
  probe_failures: 0,
  probe_error: null,
  holder_token_id: 31,
  pinned_tokens: 1,
  cost_per_day_fen: 250,
  created_at: '2026-04-01T00:00:00.000Z',
};
const DEAD: TInventoryNode = {
  ...NODE,
  id: 8,
  host: '10.0.0.8',
  exit_ip: null,
  health: 'down',
  latency_ms: null,
  probe_failures: 2,
  probe_error: 'ECONNREFUSED',
  holder_token_id: null,
  pinned_tokens: 0,
};
const SPARE: TInventoryNode = {
  ...NODE,
  id: 9,
  host: '10.0.0.9',
  exit_ip: '203.0.113.9',
  holder_token_id: null,
  pinned_tokens: 0,
};
const STOCK: TInventoryStockRow[] = [
  {
    kind: 'residential',
    country: 'us',
    state: 'ca',
    city: 'losangeles',
    state_name: 'California',
    city_name: 'Los Angeles',
    active: 3,
    disabled: 0,
    up: 2,
    down: 1,
    held: 1,
    static_available: 2,
    dynamic_available: 2,
  },
];
const page = (records: TInventoryNode[]) => ({ records, total: records.length, page: 1, page_size: 20 });

beforeEach(() => {
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminInventoryStock', () => STOCK);
  api.on('adminInventoryNodes', (req) =>
    req.query.get('assignment') === 'free' ? page([DEAD, SPARE]) : page([NODE, DEAD, SPARE]),
  );
});

describe('inventory (operator area)', () => {
  it('lists exits with area, endpoint, exit IP, health with latency and the holder, filters them, and shows the stock', async () => {
    renderAt('/admin/inventory', { featureRoutes: adminInventoryRoutes });
    expect((await screen.findByTestId('health-7')).textContent).toBe('Up · 42 ms');
    expect(screen.getByText('http://10.0.0.7:3128')).toBeTruthy();
    expect(screen.getByText('203.0.113.7')).toBeTruthy();
    expect(screen.getByTestId('health-8').textContent).toBe('Down');
    expect(screen.getByText('Held by proxy #31')).toBeTruthy();
    expect(screen.getByTestId('pinned-7').textContent).toBe('1 live proxies pinned');
    expect(screen.getAllByText('US / California / Los Angeles').length).toBeGreaterThanOrEqual(3);
    expect(document.body.textContent).not.toContain('password');
    const stock = screen.getByTestId('inventory-stock');
    expect(within(stock).getByText('US / California / Los Angeles')).toBeTruthy();

    fireEvent.mouseDown(screen.getByLabelText('Health'));
    fireEvent.click(await screen.findByText('Down', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(api.requestsTo('adminInventoryNodes').at(-1)!.query.get('health')).toBe('down'));
  });

  it('shows why a retirement is refused, then retires by moving the pinned proxy to a free exit of the area', async () => {
    let isRefused = true;
    api.on('adminInventoryNodeRetire', (req) =>
      isRefused
        ? fail(
            409,
            ERRORS.INVENTORY_NODE_PINNED.code,
            'This exit still has 1 live proxies pinned to it and cannot be retired',
            {
              error: 'INVENTORY_NODE_PINNED',
            },
          )
        : {
            node: { ...NODE, status: 'disabled' as const, holder_token_id: null, pinned_tokens: 0 },
            moved_tokens: 1,
            moved_to: (req.json as { move_to: number }).move_to,
          },
    );
    renderAt('/admin/inventory', { featureRoutes: adminInventoryRoutes });
    fireEvent.click(await screen.findByTestId('retire-7'));
    const modal = await findModalWith('Retire exit #7');
    expect(within(modal).getByText(/1 live proxies are pinned to this exit/)).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Retire' }));
    expect((await within(modal).findByTestId('retire-refusal')).textContent).toContain('cannot be retired');
    expect(api.requestsTo('adminInventoryNodeRetire')[0].json).not.toHaveProperty('move_to');

    isRefused = false;
    fireEvent.mouseDown(within(modal).getByLabelText('Move pinned proxies to'));
    // Only free exits of the same kind and area with nothing pinned are offered.
    fireEvent.click(
      await screen.findByText('#9 10.0.0.9:3128 (203.0.113.9)', { selector: '.ant-select-item-option-content' }),
    );
    fireEvent.click(within(modal).getByRole('button', { name: 'Retire' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Retired; 1 proxies moved to exit #9'));
    expect(api.requestsTo('adminInventoryNodeRetire').at(-1)!.json).toMatchObject({ move_to: 9 });
  });

  it("edits an exit's cost per day in yuan and sends it in fen", async () => {
    api.on('adminInventoryNodeUpdate', (req) => ({
      ...NODE,
      cost_per_day_fen: (req.json as { cost_per_day_fen: number }).cost_per_day_fen,
    }));
    renderAt('/admin/inventory', { featureRoutes: adminInventoryRoutes });
    fireEvent.click(await screen.findByTestId('edit-7'));
    const modal = await findModalWith('Edit exit #7');
    const cost = within(modal).getByLabelText('Cost per day (yuan)') as HTMLInputElement;
    expect(cost.value).toBe('2.50');
    fireEvent.change(cost, { target: { value: '3.05' } });
    fireEvent.blur(cost);
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requestsTo('adminInventoryNodeUpdate')).toHaveLength(1));
    expect(api.requestsTo('adminInventoryNodeUpdate')[0].json).toMatchObject({ id: 7, cost_per_day_fen: 305 });
  });

  it('probes an exit now and says what it found', async () => {
    api.on('adminInventoryNodeProbe', () => ({
      ...DEAD,
      health: 'up' as const,
      exit_ip: '203.0.113.8',
      latency_ms: 12,
      probe_error: null,
    }));
    renderAt('/admin/inventory', { featureRoutes: adminInventoryRoutes });
    fireEvent.click(await screen.findByTestId('probe-8'));
    await waitFor(() => expect(shownMessages('success')).toContain('Up: exit IP 203.0.113.8, 12 ms'));
  });

  it('checks pasted lines and shows the bad ones by number, then imports a good file as data-center exits', async () => {
    api.on('adminInventoryImport', (req) => {
      const body = req.json as { csv: string; dry_run: boolean };
      if (body.csv.includes('nonsense'))
        return { valid: 1, imported: 0, duplicates: 0, errors: [{ line: 2, message: 'expected host:port' }] };
      return body.dry_run
        ? { valid: 1, imported: 0, duplicates: 0, errors: [] }
        : { valid: 1, imported: 1, duplicates: 0, errors: [] };
    });
    renderAt('/admin/inventory', { featureRoutes: adminInventoryRoutes });
    fireEvent.click(await screen.findByRole('tab', { name: 'Import' }));
    fireEvent.change(await screen.findByLabelText('Upstream proxies (CSV)'), {
      target: { value: '10.0.0.1:3128,us\nnonsense' },
    });
    fireEvent.click(screen.getByTestId('inventory-check'));
    const errors = await screen.findByTestId('inventory-errors');
    expect(within(errors).getByText('1 line(s) cannot be imported; nothing was imported')).toBeTruthy();
    expect(within(errors).getByText('expected host:port')).toBeTruthy();
    expect(api.requestsTo('adminInventoryImport')[0].json).toEqual({
      csv: '10.0.0.1:3128,us\nnonsense',
      kind: 'residential',
      dry_run: true,
    });

    fireEvent.click(screen.getByText('Data center'));
    fireEvent.change(screen.getByLabelText('Upstream proxies (CSV)'), { target: { value: '10.0.0.1:3128,us' } });
    fireEvent.click(screen.getByTestId('inventory-import'));
    await waitFor(() => expect(shownMessages('success')).toContain('Imported 1 exit(s); 0 already known'));
    expect(api.requestsTo('adminInventoryImport').at(-1)!.json).toEqual({
      csv: '10.0.0.1:3128,us',
      kind: 'datacenter',
      dry_run: false,
    });
  });
});
