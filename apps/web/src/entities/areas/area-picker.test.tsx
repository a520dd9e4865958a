import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { makeArea } from '../../test/fixtures';
import { api } from '../../test/harness';
import { renderAt } from '../../test/render';
import { AreaPicker } from './area-picker';

/** The picker in a form that shows its values. */
function PickerForm() {
  const [form] = Form.useForm();
  return (
    <Form form={form}>
      <AreaPicker category="idc" />
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
});
