import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeArea } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { answerProxyScreen, renderStatic } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

async function openPurchase() {
  fireEvent.click(await screen.findByText('Buy proxies'));
  return (await screen.findByTestId('price-preview')).closest('.ant-drawer') as HTMLElement;
}

// The purchase form's areas are those of its product and billing (docs/pools.md, "What customers see").
describe('purchase form areas', () => {
  it('asks for the areas of the product and billing chosen, again when the billing changes', async () => {
    renderStatic();
    const drawer = await openPurchase();
    // The screen's list filters ask for every area of the category; the form for those of its product.
    const asked = () => api.requestsTo('tokenAreaCountries').map((r) => Object.fromEntries(r.query));
    await waitFor(() => expect(asked()).toContainEqual({ category: 'isp', product: 'static', billing: 'ip' }));
    fireEvent.click(drawer.querySelector('input[type=radio][value=traffic]')!);
    await waitFor(() => expect(asked()).toContainEqual({ category: 'isp', product: 'static', billing: 'traffic' }));
  });

  it('names the areas on sale, those only upstream pools serve too, and disables the others with the reason', async () => {
    api.on('tokenAreaCountries', () => [
      { ...makeArea('br', 'Brazil', '巴西', 0), supply: 'pool' as const, is_available: true },
      { ...makeArea('fr', 'France', '法国', 0), supply: 'pool' as const, is_available: false },
      { ...makeArea('jp', 'Japan', '日本', 0), supply: 'exits' as const, is_available: false },
      { ...makeArea('us', 'United States', '美国', 3), supply: 'both' as const, is_available: true },
    ]);
    renderStatic();
    const drawer = await openPurchase();
    const notice = await within(drawer).findByTestId('stock-notice');
    // Free exits first, with their count; then what pools serve.
    expect(notice.textContent).toContain('In stock now: United States (3 available), Brazil.');
    expect(notice.textContent).not.toContain('France');
    expect(notice.textContent).not.toContain('Japan');
    fireEvent.mouseDown(within(drawer).getByLabelText('Country / region'));
    const option = async (text: string) =>
      (await screen.findByText(text)).closest('.ant-select-item-option') as HTMLElement;
    expect((await option('France (temporarily unavailable)')).getAttribute('aria-disabled')).toBe('true');
    expect((await option('Japan (out of stock)')).getAttribute('aria-disabled')).toBe('true');
    expect((await option('Brazil (available)')).getAttribute('aria-disabled')).toBe('false');
  });
});
