import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { parseProxyUsername, type TProxyToken, type TSpiderRecord } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail } from '../../../test/api-stub';
import { makeArea, makeToken, pageOf } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import EndpointGeneratorPage from './endpoint-generator-page';

/** A dynamic traffic proxy in California, as the generator's picker lists it. */
function generatorToken(fields: Partial<TProxyToken> & Pick<TProxyToken, 'token_id' | 'username'>): TProxyToken {
  return makeToken({
    product: 'dynamic',
    type: 'traffic',
    area: {
      country: 'us',
      state: 'ca',
      city: '',
      country_name: 'United States',
      state_name: 'California',
      city_name: '',
    },
    usage: { used_bytes: 0, limit_bytes: 1073741824 },
    expires_at: '2026-02-01T00:00:00.000Z',
    host: 'gw.example.com',
    password: 'secretpw',
    proxy_url: '',
    ...fields,
  });
}

const DYNAMIC = generatorToken({ token_id: 5, username: 'udyn5' });
const STATIC = generatorToken({
  token_id: 9,
  username: 'ustat9',
  product: 'static',
  type: 'ip',
  network: 'SOCKS5',
  area: {
    country: 'gb',
    state: '',
    city: 'london',
    country_name: 'United Kingdom',
    state_name: '',
    city_name: 'London',
  },
});
const RECORD: TSpiderRecord = {
  id: 7,
  token_id: 5,
  token_username: 'udyn5',
  params: {
    country_id: 'us',
    state_id: 'ca',
    city_id: '',
    session: 'rotating',
    sesstime: null,
    line: 'hpup',
    count: 10,
  },
  line_count: 10,
  filename: 'endpoints-7.txt',
  created_at: '2026-01-05T08:00:00.000Z',
};

function renderPage() {
  return renderAt('/proxy/endpoint-generator', <EndpointGeneratorPage />);
}

function previewLines(): string[] {
  return (screen.getByTestId('endpoint-preview') as HTMLTextAreaElement).value.split('\n');
}

// One dynamic and one static proxy, the area lists down to a city, and one generated file.
beforeEach(() => {
  api.on('tokenListIspDynamic', () => pageOf([DYNAMIC], 200));
  api.on('tokenListIspStatic', () => pageOf([STATIC], 200));
  api.on('tokenListIdcStatic', () => pageOf([], 200));
  api.on('tokenAreaCountries', () => [makeArea('us', 'United States', '美国', 3)]);
  api.on('tokenAreaStates', () => [makeArea('ca', 'California', '加利福尼亚州', 2)]);
  api.on('tokenAreaCities', () => [makeArea('losangeles', 'Los Angeles', '洛杉矶', 1)]);
  api.on('tokenSpiderRecords', () => pageOf([RECORD]));
});

// Generous: antd pages render slowly in jsdom, more so on a busy machine.
describe('endpoint generator', () => {
  it('previews rotating lines of the first dynamic proxy in its area, in the username grammar', async () => {
    renderPage();
    await waitFor(() => expect(previewLines()).toHaveLength(10));
    expect(new Set(previewLines())).toEqual(new Set(['gw.example.com:7777:udyn5-country-us-state-ca:secretpw']));
    expect(screen.getByText('10 lines')).toBeTruthy();
    // The area pickers load the token's category.
    await waitFor(() =>
      expect(api.requestsTo('tokenAreaCountries').some((r) => r.query.get('category') === 'isp')).toBe(true),
    );
    // The grammar is explained on the page.
    expect(screen.getByText('USERNAME-country-us-state-ca-city-losangeles-session-abc123-sesstime-10')).toBeTruthy();
    expect(screen.getByText(/Minutes a session keeps its exit \(1-120, default 10\)/)).toBeTruthy();
  });

  it('sticky mode gives every line its own session id with the sticky minutes; new ids on demand', async () => {
    renderPage();
    await waitFor(() => expect(previewLines()).toHaveLength(10));
    fireEvent.click(screen.getByRole('radio', { name: 'Sticky' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Count' }), { target: { value: '25' } });
    fireEvent.change(await screen.findByRole('spinbutton', { name: 'Sticky time (minutes)' }), {
      target: { value: '30' },
    });
    await waitFor(() => expect(previewLines()).toHaveLength(25));
    await waitFor(() => expect(previewLines()[0]).toContain('-sesstime-30:'));
    const sessions = previewLines().map((line) => {
      const [host, port, username, password] = line.split(':');
      expect([host, port, password]).toEqual(['gw.example.com', '7777', 'secretpw']);
      const parsed = parseProxyUsername(username)!;
      expect(parsed).toMatchObject({ username: 'udyn5', options: { country: 'us', state: 'ca', sesstime: 30 } });
      return parsed.options.session;
    });
    expect(new Set(sessions).size).toBe(25);
    const before = previewLines();
    fireEvent.click(screen.getByRole('button', { name: /New session ids/ }));
    await waitFor(() => expect(previewLines()).not.toEqual(before));
    expect(previewLines()).toHaveLength(25);
  });

  it('a static proxy has one plain line in its own protocol and no area options', async () => {
    renderPage();
    await waitFor(() => expect(previewLines()).toHaveLength(10));
    const picker = screen.getByRole('combobox', { name: 'Proxy' });
    fireEvent.mouseDown(picker);
    fireEvent.click(
      await screen.findByText(/^ustat9 · United Kingdom/, { selector: '.ant-select-item-option-content' }),
    );
    await waitFor(() => expect(previewLines()).toEqual(['socks5://ustat9:secretpw@gw.example.com:7777']));
    expect(screen.getByText(/A static proxy always leaves through its own fixed exit/)).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Country / region' })).toBeNull();
  });

  it('"Generate file" sends the settings and then shows the file\'s own lines with a download', async () => {
    api.on('tokenCreateSpider', () => ({
      ...RECORD,
      id: 8,
      filename: 'endpoints-8.txt',
      line_count: 10,
      lines: Array.from({ length: 10 }, (_, i) => `gw.example.com:7777:udyn5-country-us-state-ca:secretpw#${i}`),
    }));
    renderPage();
    await waitFor(() => expect(previewLines()).toHaveLength(10));
    const recordsBefore = api.requestsTo('tokenSpiderRecords').length;
    fireEvent.click(screen.getByRole('button', { name: /Generate file/ }));
    await waitFor(() => expect(screen.getByText('Lines of file #8')).toBeTruthy());
    expect(api.requestsTo('tokenCreateSpider')[0].json).toEqual({
      token_id: 5,
      country_id: 'us',
      state_id: 'ca',
      city_id: '',
      session: 'rotating',
      line: 'hpup',
      count: 10,
    });
    expect(previewLines()[3]).toBe('gw.example.com:7777:udyn5-country-us-state-ca:secretpw#3');
    expect(screen.getByRole('button', { name: /Download file/ })).toBeTruthy();
    expect(shownMessages('success').at(-1)).toBe('Endpoint file generated: 10 lines');
    // The history reloads with the new file.
    await waitFor(() => expect(api.requestsTo('tokenSpiderRecords').length).toBeGreaterThan(recordsBefore));
  });

  it('says "endpoint generation failed" with the server\'s reason', async () => {
    api.on('tokenCreateSpider', () => fail(400, 400, 'Count must be 1-10000', { error: 'VALIDATION' }));
    renderPage();
    await waitFor(() => expect(previewLines()).toHaveLength(10));
    fireEvent.click(screen.getByRole('button', { name: /Generate file/ }));
    await waitFor(() =>
      expect(shownMessages()).toContain('Endpoint generation failed, please try again later: Count must be 1-10000'),
    );
    expect(screen.queryByText(/Lines of file/)).toBeNull();
  });

  it('lists the generated files with their settings and download links', async () => {
    renderPage();
    const table = (await screen.findByText('endpoints-7.txt')).closest('table')!;
    expect(within(table).getByText('us / ca')).toBeTruthy();
    expect(within(table).getByText('Rotating')).toBeTruthy();
    expect(within(table).getByText('host:port:user:pass')).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Download endpoints-7.txt' })).toBeTruthy();
  });

  it('shows the Chinese texts', async () => {
    act(() => setLanguage('zh'));
    renderPage();
    await waitFor(() => expect(previewLines()).toHaveLength(10));
    expect(screen.getByRole('button', { name: /生成文件/ })).toBeTruthy();
    expect(screen.getByText('用户名参数')).toBeTruthy();
  });
});
