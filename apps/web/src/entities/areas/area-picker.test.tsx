import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { makeArea } from '../../test/fixtures';
import { setLanguage } from '../../lib/i18n';
import { api } from '../../test/harness';
import { renderAt } from '../../test/render';
import type { TAreaOffer } from './area-countries';
import { AreaPicker } from './area-picker';

/** The picker in a form that shows its values (for a product, when given). */
function PickerForm(props: { offer?: TAreaOffer }) {
  const [form] = Form.useForm();
  return (
    <Form form={form}>
      <AreaPicker category={props.offer ? 'isp' : 'idc'} offer={props.offer} />
      <Form.Item shouldUpdate noStyle>
        {() => (
          <output data-testid="values">
            {JSON.stringify(form.getFieldsValue(['country_id', 'state_id', 'city_id']))}
          </output>
        )}
      </Form.Item>
    </Form>
  );
}

const values = () => JSON.parse(screen.getByTestId('values').textContent ?? '{}') as Record<string, string | undefined>;

/** Opens a level's list once it is enabled and picks an option (an earlier list may still be in the document: the newest is last). */
async function pick(label: string, option: string) {
  const field = screen.getByLabelText(label) as HTMLInputElement;
  await waitFor(() => expect(field.disabled).toBe(false));
  fireEvent.mouseDown(field);
  await screen.findAllByText(option);
  fireEvent.click(screen.getAllByText(option).at(-1)!);
}

// Two countries; California with one city in the United States.
beforeEach(() => {
  api.on('tokenAreaCountries', () => [
    makeArea('us', 'United States', '美国', 3),
    makeArea('gb', 'United Kingdom', '英国', 2),
  ]);
  api.on('tokenAreaStates', (req) =>
    req.query.get('country_id') === 'us' ? [makeArea('ca', 'California', '加利福尼亚州', 2)] : [],
  );
  api.on('tokenAreaCities', () => [makeArea('losangeles', 'Los Angeles', '洛杉矶', 1)]);
});

describe('area picker', { timeout: 60_000 }, () => {
  it('loads each level for the chosen parent and clears the levels below when a parent changes', async () => {
    renderAt('/', <PickerForm />);
    await pick('Country / region', 'United States (3 available)');
    await pick('State / province', 'California (2 available)');
    await pick('City', 'Los Angeles (1 available)');
    expect(values()).toEqual({ country_id: 'us', state_id: 'ca', city_id: 'losangeles' });
    expect(Object.fromEntries(api.requestsTo('tokenAreaStates')[0].query)).toEqual({
      category: 'idc',
      country_id: 'us',
    });
    expect(Object.fromEntries(api.requestsTo('tokenAreaCities')[0].query)).toEqual({
      category: 'idc',
      country_id: 'us',
      state_id: 'ca',
    });
    // The field names the area; the count is for choosing.
    const countryField = screen.getByLabelText('Country / region').closest('.ant-select') as HTMLElement;
    expect(within(countryField).getByText('United States')).toBeTruthy();

    await pick('Country / region', 'United Kingdom (2 available)');
    await waitFor(() => expect(values()).toEqual({ country_id: 'gb' }));
  });

  it('asks for the product and shows areas it cannot be bought in disabled, with the reason', async () => {
    api.on('tokenAreaCountries', () => [
      { ...makeArea('br', 'Brazil', '巴西', 0), supply: 'pool' as const, is_available: true },
      { ...makeArea('fr', 'France', '法国', 0), supply: 'pool' as const, is_available: false },
      { ...makeArea('jp', 'Japan', '日本', 0), supply: 'exits' as const, is_available: false },
      { ...makeArea('us', 'United States', '美国', 2), supply: 'both' as const, is_available: true },
    ]);
    api.on('tokenAreaStates', () => [
      { ...makeArea('sp', 'São Paulo', '圣保罗州', 0), supply: 'pool' as const, is_available: true },
    ]);
    renderAt('/', <PickerForm offer={{ product: 'dynamic', billing: 'traffic' }} />);
    fireEvent.mouseDown(screen.getByLabelText('Country / region'));
    const option = async (text: string) =>
      (await screen.findByText(text)).closest('.ant-select-item-option') as HTMLElement;
    // Served by a pool, no exit to count: available; its pools failing: temporarily unavailable; no free exit: out of stock.
    expect((await option('Brazil (available)')).getAttribute('aria-disabled')).toBe('false');
    expect((await option('France (temporarily unavailable)')).getAttribute('aria-disabled')).toBe('true');
    expect((await option('Japan (out of stock)')).getAttribute('aria-disabled')).toBe('true');
    expect((await option('United States (2 available)')).getAttribute('aria-disabled')).toBe('false');
    fireEvent.click(screen.getByText('France (temporarily unavailable)'));
    expect(values()).toEqual({});
    fireEvent.click(screen.getByText('Brazil (available)'));
    await waitFor(() => expect(values()).toEqual({ country_id: 'br' }));
    await pick('State / province', 'São Paulo (available)');
    expect(Object.fromEntries(api.requestsTo('tokenAreaCountries')[0].query)).toEqual({
      category: 'isp',
      product: 'dynamic',
      billing: 'traffic',
    });
    expect(Object.fromEntries(api.requestsTo('tokenAreaStates')[0].query)).toEqual({
      category: 'isp',
      country_id: 'br',
      product: 'dynamic',
      billing: 'traffic',
    });
  });

  it('says the reasons in Chinese', async () => {
    setLanguage('zh');
    api.on('tokenAreaCountries', () => [
      { ...makeArea('br', 'Brazil', '巴西', 0), supply: 'pool' as const, is_available: true },
      { ...makeArea('fr', 'France', '法国', 0), supply: 'both' as const, is_available: false },
      { ...makeArea('jp', 'Japan', '日本', 0), supply: 'exits' as const, is_available: false },
    ]);
    renderAt('/', <PickerForm offer={{ product: 'static', billing: 'ip' }} />);
    fireEvent.mouseDown(screen.getByLabelText('国家 / 地区'));
    expect(await screen.findByText('巴西（可用）')).toBeTruthy();
    expect(screen.getByText('法国（暂时不可用）')).toBeTruthy();
    expect(screen.getByText('日本（无库存）')).toBeTruthy();
  });
});
