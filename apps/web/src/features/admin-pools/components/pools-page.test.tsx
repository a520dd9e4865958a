import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NO_POOL_HEALTH, ERRORS, type TPool, type TPoolCheckResult, type TPoolDetail } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { setLanguage } from '../../../lib/i18n';
import { adminPoolsRoutes } from '../routes';

const TEMPLATE = 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]';
const SECRET = 'provider-secret-7';

const ENABLED: TPool = {
  id: 1,
  name: 'Residential A',
  kind: 'residential',
  protocol: 'http-connect',
  endpoints: [
    { host: 'pr.example.net', port: 7777 },
    { host: 'pr2.example.net', port: 7777 },
  ],
  username: 'acme',
  has_password: true,
  username_template: TEMPLATE,
  template_placeholders: ['user', 'country', 'state', 'city', 'session', 'minutes'],
  session_length: 12,
  area_case: 'upper',
  area_mapping_count: 1,
  coverage_mode: 'all',
  coverage_count: 0,
  cost_per_gb_fen: 2550,
  priority: 10,
  weight: 100,
  max_connections: 1000,
  exit_ip_header: 'x-exit-ip',
  session_idle_minutes: 30,
  status: 'enabled',
  last_check: {
    at: '2026-05-01T10:00:00.000Z',
    outcome: 'ok',
    area: 'us/california',
    exit_ip: '203.0.113.9',
    exit_country: 'us',
    latency_ms: 240,
  },
  health: {
    gateways: 2,
    attempts: 400,
    successes: 388,
    avg_connect_ms: 182,
    refusals: { timeout: 9, 'area-not-served': 3 },
    open_connections: 21,
    circuit_open_on: 1,
    open_areas: ['de'],
  },
  created_at: '2026-04-01T00:00:00.000Z',
  updated_at: '2026-04-01T00:00:00.000Z',
};
const PAUSED: TPool = {
  ...ENABLED,
  id: 2,
  name: 'Socks B',
  kind: 'datacenter',
  protocol: 'socks5',
  endpoints: [{ host: '10.9.8.7', port: 1080 }],
  username_template: 'u-{user}-{country}',
  template_placeholders: ['user', 'country'],
  area_case: 'lower',
  area_mapping_count: 0,
  coverage_mode: 'list',
  coverage_count: 3,
  cost_per_gb_fen: 0,
  priority: 20,
  weight: 5,
  status: 'paused',
  health: NO_POOL_HEALTH,
  last_check: {
    at: '2026-05-02T10:00:00.000Z',
    outcome: 'bad-credentials',
    area: 'de',
    exit_ip: null,
    exit_country: null,
    latency_ms: null,
  },
};
const detailOf = (pool: TPool): TPoolDetail => ({
  ...pool,
  coverage: [],
  area_mapping: pool.id === 1 ? [{ country: 'us', state: 'california', city: '', spelling: 'us_california' }] : [],
});
const page = (records: TPool[]) => ({ records, total: records.length, page: 1, page_size: 20 });

const CHECK_BASE: TPoolCheckResult = {
  outcome: 'ok',
  username: 'customer-acme-cc-US-st-us_california',
  area: 'us/california',
  is_covered: true,
  session_id: null,
  endpoint: 'pr.example.net:7777',
  attempts: [{ endpoint: 'pr.example.net:7777', outcome: 'connected', ms: 30, detail: '' }],
  provider_status: null,
  provider_detail: null,
  exit_ip: '198.51.100.4',
  exit_country: 'us',
  provider_exit_ip: '198.51.100.4',
  provider_exit_country: 'US',
  connect_ms: 30,
  latency_ms: 180,
  checked_at: '2026-05-03T10:00:00.000Z',
};

let pools: TPool[];

beforeEach(() => {
  pools = [ENABLED, PAUSED];
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminPools', () => page(pools));
  api.on('adminPool', (req) => detailOf(pools.find((p) => p.id === Number(req.params.id))!));
});

const render = () => renderAt('/admin/pools', { featureRoutes: adminPoolsRoutes });
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
// A confirm dialog may repeat its title for screen readers: the newest one holding the text.
const confirmDialog = async (text: string) =>
  (await screen.findAllByText(text)).at(-1)!.closest('.ant-modal-confirm') as HTMLElement;
// Every value the page shows, in text and in fields.
const shownValues = () =>
  document.body.textContent! +
  [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')]
    .map((e) => e.value)
    .join('\n');
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('upstream pools (operator area)', () => {
  it('lists pools with protocol, endpoints, status, priority and weight, cost per GB, coverage and the last check', async () => {
    render();
    const row = await rowOf('Residential A');
    expect(within(row).getByText('HTTP CONNECT')).toBeTruthy();
    expect(within(row).getByText('pr.example.net:7777')).toBeTruthy();
    expect(within(row).getByText('pr2.example.net:7777')).toBeTruthy();
    expect(screen.getByTestId('status-1').textContent).toBe('Enabled');
    expect(within(row).getByText('10 / 100')).toBeTruthy();
    expect(screen.getByTestId('cost-1').textContent).toBe('¥25.50');
    expect(screen.getByTestId('coverage-1').textContent).toBe('Every country1 spelling(s)');
    expect(screen.getByTestId('last-check-1').textContent).toContain('OK203.0.113.9 · US · 240 ms');
    expect(screen.getByTestId('last-check-1').textContent).toContain('Area us/california');
    // The fleet's view: 388 of 400 dials, 182 ms, 2 gateways, one of which skips the pool now, and Germany skipped.
    expect(screen.getByTestId('health-1').textContent).toBe(
      '97% connected · 182 ms to connect2 gateway(s) · 21 openSkipped by 1 of 2 gatewaysSkipped for DE',
    );
    expect(screen.getByTestId('health-2').textContent).toBe('No report in the last minute');

    expect(screen.getByTestId('status-2').textContent).toBe('Paused');
    expect(screen.getByTestId('coverage-2').textContent).toBe('3 area(s)');
    expect(screen.getByTestId('last-check-2').textContent).toContain('Wrong credentials');
    expect(screen.getByTestId('cost-2').textContent).toBe('¥0.00');
    // Row actions are buttons named with their pool.
    expect(screen.getByLabelText('Check pool Socks B').tagName).toBe('BUTTON');
  });

  it('speaks Chinese, shows an empty list with a way to add, and a failed list with a retry', async () => {
    act(() => setLanguage('zh'));
    pools = [];
    let isDown = true;
    api.on('adminPools', () => (isDown ? fail(500, 500, 'Server error', { error: 'INTERNAL' }) : page(pools)));
    render();
    await waitFor(() => expect(shownMessages('error')).toContain('上游池列表加载失败'));
    isDown = false;
    fireEvent.click(await screen.findByText('重试'));
    expect(await screen.findByText('还没有上游池：添加第一个')).toBeTruthy();
    pools = [ENABLED];
    fireEvent.click(screen.getByText('刷新'));
    expect((await screen.findByTestId('status-1')).textContent).toBe('启用');
    expect(screen.getByTestId('coverage-1').textContent).toContain('全部国家');
    expect(screen.getByTestId('last-check-1').textContent).toContain('正常');
    expect(screen.getByTestId('health-1').textContent).toContain('连接成功率 97%');
  });

  it('adds a pool: checks the template as it is typed, previews the username, and shows the API refusals under their fields', async () => {
    let answer: 'refuse-template' | 'name-taken' | 'ok' = 'refuse-template';
    api.on('adminPoolCreate', (req) => {
      if (answer === 'refuse-template')
        return fail(400, 400, 'The username template cannot contain "#" (U+0023): made-up server words', {
          error: 'BAD_REQUEST',
          issues: [
            {
              path: 'username_template',
              message: 'The username template cannot contain "#" (U+0023): made-up server words',
            },
          ],
        });
      if (answer === 'name-taken')
        return fail(409, ERRORS.POOL_NAME_TAKEN.code, 'Another pool has this name', { error: 'POOL_NAME_TAKEN' });
      const body = req.json as { name: string };
      return detailOf({ ...PAUSED, id: 3, name: body.name });
    });
    render();
    fireEvent.click(await screen.findByTestId('pool-add'));
    await screen.findByTestId('pool-form');
    fill('Name', 'Residential C');
    fill('Host of endpoint 1', 'pool.example.net');
    fill('Port of endpoint 1', '8000');
    fireEvent.click(screen.getByText('Add endpoint'));
    fill('Host of endpoint 2', 'pool2.example.net');
    fill('Port of endpoint 2', '8001');
    // The second endpoint is tried first.
    fireEvent.click(screen.getByLabelText('Move endpoint 2 up'));
    fill('Account name ({user})', 'acme');
    fill('Password', SECRET);
    fill('Cost per GB (yuan)', '12.34');

    // A character no provider takes: the contract's own message, before anything is sent.
    fill('Username template', 'user-{user}:{country}');
    expect(
      await screen.findByText(
        'The username template cannot contain ":" (U+003A): providers do not accept it in a username',
      ),
    ).toBeTruthy();
    fill('Username template', 'user-{user}-{country}[-sid-{session}]');
    await waitFor(() =>
      expect(screen.getByTestId('template-preview-username').textContent).toBe('user-acme-us-sid-k3x9q2m1a0bz'),
    );
    fill('Sample country', 'de');
    fireEvent.click(screen.getByLabelText('Sticky session'));
    await waitFor(() => expect(screen.getByTestId('template-preview-username').textContent).toBe('user-acme-de'));

    fireEvent.click(screen.getByTestId('pool-save'));
    expect(
      await screen.findByText('The username template cannot contain "#" (U+0023): made-up server words'),
    ).toBeTruthy();
    expect(api.requestsTo('adminPoolCreate')[0].json).toEqual({
      name: 'Residential C',
      kind: 'residential',
      protocol: 'http-connect',
      endpoints: [
        { host: 'pool2.example.net', port: 8001 },
        { host: 'pool.example.net', port: 8000 },
      ],
      username: 'acme',
      password: SECRET,
      username_template: 'user-{user}-{country}[-sid-{session}]',
      area_case: 'lower',
      priority: 10,
      weight: 100,
      max_connections: 1000,
      cost_per_gb_fen: 1234,
      exit_ip_header: null,
      session_idle_minutes: null,
    });

    answer = 'name-taken';
    fireEvent.click(screen.getByTestId('pool-save'));
    expect(await screen.findByText('Another pool has this name')).toBeTruthy();
    expect(shownMessages('error')).toEqual([]);

    answer = 'ok';
    fireEvent.click(screen.getByTestId('pool-save'));
    await waitFor(() =>
      expect(shownMessages('success')).toContain('Pool Residential C added (paused: check it, then resume it)'),
    );
    // The password shows nowhere once the pool is added.
    fireEvent.click(await screen.findByTestId('pool-add'));
    await waitFor(() => expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe(''));
    expect(shownValues()).not.toContain(SECRET);
  });

  it('refuses in Chinese with the server’s Chinese message', async () => {
    act(() => setLanguage('zh'));
    api.on('adminPoolCreate', () =>
      fail(400, 400, '端口为 1-65535 的整数', {
        error: 'BAD_REQUEST',
        issues: [{ path: 'endpoints.0.port', message: '端口为 1-65535 的整数（服务器）' }],
      }),
    );
    render();
    fireEvent.click(await screen.findByTestId('pool-add'));
    await screen.findByTestId('pool-form');
    fireEvent.click(screen.getByTestId('pool-save'));
    // The contract's messages in Chinese, before anything is sent.
    expect((await screen.findAllByText('此项为必填项')).length).toBeGreaterThan(0);
    expect(await screen.findByText('端口为 1-65535 的整数')).toBeTruthy();
    expect(api.requestsTo('adminPoolCreate')).toHaveLength(0);
    fill('名称', 'Pool Z');
    fill('接入点 1 的主机', 'z.example.net');
    fill('接入点 1 的端口', '9000');
    fill('账号名（{user}）', 'zed');
    fill('密码', 'x');
    fireEvent.click(screen.getByTestId('pool-save'));
    expect(await screen.findByText('端口为 1-65535 的整数（服务器）')).toBeTruthy();
  });

  it('edits a pool without ever showing its password: the field starts empty, and left empty it is not sent', async () => {
    api.on('adminPoolUpdate', (req) => detailOf({ ...ENABLED, ...(req.json as Partial<TPool>) }));
    render();
    fireEvent.click(await screen.findByTestId('edit-1'));
    await screen.findByText('Edit pool Residential A');
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.value).toBe('');
    // Typed characters stay masked: a password field with no button to reveal them.
    expect(password.type).toBe('password');
    expect(password.closest('.ant-input-affix-wrapper')!.querySelector('.ant-input-password-icon')).toBeNull();
    expect(screen.getByText('Leave empty to keep the stored password. It is never shown.')).toBeTruthy();
    // The preview spells the area with the pool's case and its imported spellings.
    await waitFor(() =>
      expect(screen.getByTestId('template-preview-username').textContent).toBe(
        'customer-acme-cc-US-st-us_california-city-LOSANGELES-sessid-k3x9q2m1a0bz-sesstime-10',
      ),
    );
    // A required state the sample area lacks: the API's own refusal words.
    fill('Username template', 'customer-{user}-cc-{country}-st-{state}');
    fill('Sample state', '');
    expect((await screen.findByTestId('template-preview-problem')).textContent).toContain(
      'The template requires {state}, which this area has no value for',
    );
    fill('Username template', TEMPLATE);
    fill('Weight', '50');
    fireEvent.click(screen.getByTestId('pool-save'));
    await waitFor(() => expect(shownMessages('success')).toContain('Pool Residential A saved'));
    const sent = api.requestsTo('adminPoolUpdate')[0].json as Record<string, unknown>;
    expect(sent).not.toHaveProperty('password');
    expect(sent).toMatchObject({ weight: 50, cost_per_gb_fen: 2550, area_case: 'upper' });

    // A new password is sent once, and shown nowhere.
    fireEvent.click(await screen.findByTestId('edit-1'));
    await screen.findByText('Edit pool Residential A');
    await waitFor(() => expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe(''));
    fill('Password', SECRET);
    fireEvent.click(screen.getByTestId('pool-save'));
    await waitFor(() =>
      expect(shownMessages('success').filter((m) => m === 'Pool Residential A saved')).toHaveLength(2),
    );
    expect(api.requestsTo('adminPoolUpdate')[1].json).toMatchObject({ password: SECRET });
    fireEvent.click(await screen.findByTestId('edit-1'));
    await screen.findByText('Edit pool Residential A');
    await waitFor(() => expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe(''));
    expect(shownValues()).not.toContain(SECRET);
  });

  it('edits the exit IP header and the session idle limit with their help, refusing bad ones; empty is not stated', async () => {
    api.on('adminPoolUpdate', (req) => detailOf({ ...ENABLED, ...(req.json as Partial<TPool>) }));
    render();
    fireEvent.click(await screen.findByTestId('edit-1'));
    await screen.findByText('Edit pool Residential A');
    await waitFor(() => expect((screen.getByLabelText('Exit IP header') as HTMLInputElement).value).toBe('x-exit-ip'));
    expect((screen.getByLabelText('Session idle limit') as HTMLInputElement).value).toBe('30');
    expect(screen.getByText(/names the tunnel's exit IP \(e\.g\. x-exit-ip\)/)).toBeTruthy();
    expect(screen.getByText(/Minutes a sticky session may stay idle before the provider drops it/)).toBeTruthy();

    // The contract's rules, before anything is sent.
    fill('Exit IP header', 'x exit ip');
    fill('Session idle limit', '1441');
    fireEvent.click(screen.getByTestId('pool-save'));
    expect(await screen.findByText(/^The exit IP header must be a header name of at most 64 characters/)).toBeTruthy();
    expect(screen.getByText('The session idle limit must be 1 to 1440 whole minutes')).toBeTruthy();
    expect(api.requestsTo('adminPoolUpdate')).toHaveLength(0);

    fill('Exit IP header', 'X-Node-IP');
    fill('Session idle limit', '45');
    fireEvent.click(screen.getByTestId('pool-save'));
    await waitFor(() => expect(shownMessages('success')).toContain('Pool Residential A saved'));
    expect(api.requestsTo('adminPoolUpdate')[0].json).toMatchObject({
      exit_ip_header: 'X-Node-IP',
      session_idle_minutes: 45,
    });

    // Emptied: the pool does not report its exit IP, nor state an idle limit.
    fireEvent.click(await screen.findByTestId('edit-1'));
    await screen.findByText('Edit pool Residential A');
    await waitFor(() => expect((screen.getByLabelText('Exit IP header') as HTMLInputElement).value).not.toBe(''));
    fill('Exit IP header', '');
    fill('Session idle limit', '');
    fireEvent.click(screen.getByTestId('pool-save'));
    await waitFor(() => expect(api.requestsTo('adminPoolUpdate')).toHaveLength(2));
    expect(api.requestsTo('adminPoolUpdate')[1].json).toMatchObject({
      exit_ip_header: null,
      session_idle_minutes: null,
    });
  });

  it('explains and refuses the exit IP header and the idle limit in Chinese', async () => {
    act(() => setLanguage('zh'));
    render();
    fireEvent.click(await screen.findByTestId('edit-1'));
    await screen.findByTestId('pool-form');
    expect(screen.getByText(/代理池在 CONNECT 响应中给出隧道出口 IP 的响应头/)).toBeTruthy();
    fill('出口 IP 响应头', 'x:ip');
    fill('会话空闲上限', '0');
    fireEvent.click(screen.getByTestId('pool-save'));
    expect(await screen.findByText(/^出口 IP 响应头须为头名称，最多 64 个字符/)).toBeTruthy();
    expect(screen.getByText('会话空闲上限为 1-1440 的整数分钟')).toBeTruthy();
    expect(api.requestsTo('adminPoolUpdate')).toHaveLength(0);
  });

  it('will not delete an enabled pool: it offers to pause it first; a paused one is deleted after a confirmation', async () => {
    api.on('adminPoolPause', () => detailOf({ ...ENABLED, status: 'paused' }));
    let isRefused = true;
    api.on('adminPoolDelete', (req) =>
      isRefused
        ? fail(409, ERRORS.POOL_ENABLED.code, 'Made-up server words: the pool is enabled, pause it first', {
            error: 'POOL_ENABLED',
          })
        : { id: Number(req.params.id) },
    );
    render();
    fireEvent.click(await screen.findByTestId('delete-1'));
    const dialog = await confirmDialog('Pool Residential A is enabled');
    expect(within(dialog).getByText(ERRORS.POOL_ENABLED.en)).toBeTruthy();
    fireEvent.click(within(dialog).getByText('Pause it now'));
    await waitFor(() => expect(shownMessages('success')).toContain('Pool Residential A paused'));
    expect(api.requestsTo('adminPoolPause').map((r) => r.params.id)).toEqual(['1']);
    expect(api.requestsTo('adminPoolDelete')).toHaveLength(0);

    // The paused pool: confirmed, then refused by the API (resumed meanwhile): its words are shown.
    fireEvent.click(screen.getByTestId('delete-2'));
    fireEvent.click(within(await confirmDialog('Delete pool Socks B?')).getByText('Delete'));
    await waitFor(() =>
      expect(shownMessages('error')).toContain('Made-up server words: the pool is enabled, pause it first'),
    );
    isRefused = false;
    pools = [ENABLED];
    fireEvent.click(screen.getByTestId('delete-2'));
    fireEvent.click(within(await confirmDialog('Delete pool Socks B?')).getByText('Delete'));
    await waitFor(() => expect(shownMessages('success')).toContain('Pool Socks B deleted'));
    expect(api.requestsTo('adminPoolDelete').map((r) => r.params.id)).toEqual(['2', '2']);
  });

  it('resumes a paused pool', async () => {
    api.on('adminPoolResume', () => detailOf({ ...PAUSED, status: 'enabled' }));
    render();
    fireEvent.click(await screen.findByLabelText('Resume pool Socks B'));
    await waitFor(() => expect(shownMessages('success')).toContain('Pool Socks B resumed'));
  });

  it('checks a pool: the exit IP, its country and the latency; or the provider’s refusal in its own words', async () => {
    let result: TPoolCheckResult | 'username-missing' = CHECK_BASE;
    api.on('adminPoolCheck', () =>
      result === 'username-missing'
        ? fail(409, ERRORS.POOL_USERNAME_MISSING.code, 'The template requires {city}: server words', {
            error: 'POOL_USERNAME_MISSING',
          })
        : result,
    );
    render();
    fireEvent.click(await screen.findByTestId('check-1'));
    await screen.findByTestId('check-form');
    fill('Country (ISO code)', 'US');
    fill('State / region (optional)', 'California');
    fill('Session label (optional)', 'k1');
    fireEvent.click(screen.getByTestId('check-run'));
    expect((await screen.findByTestId('check-exit-ip')).textContent).toBe('198.51.100.4');
    expect(screen.getByTestId('check-exit-country').textContent).toBe('US (IP data)');
    expect(screen.getByTestId('check-latency').textContent).toBe('180 ms (connect 30 ms)');
    expect(screen.getByTestId('check-username').textContent).toBe('customer-acme-cc-US-st-us_california');
    expect(api.requestsTo('adminPoolCheck')[0].json).toEqual({
      id: 1,
      country: 'US',
      state: 'California',
      city: '',
      session: 'k1',
    });

    result = {
      ...CHECK_BASE,
      outcome: 'bad-credentials',
      exit_ip: null,
      exit_country: null,
      provider_exit_ip: null,
      provider_exit_country: null,
      latency_ms: null,
      connect_ms: null,
      provider_status: 'HTTP 407 Proxy Authentication Required',
      provider_detail: 'Proxy Authentication Required: invalid username or password',
    };
    fireEvent.click(screen.getByTestId('check-run'));
    expect((await screen.findByTestId('check-failure')).textContent).toBe(
      'Wrong credentials: the provider refused the account name or password',
    );
    const said = screen.getByTestId('check-provider-said');
    expect(within(said).getByText('HTTP 407 Proxy Authentication Required')).toBeTruthy();
    expect(within(said).getByText('Proxy Authentication Required: invalid username or password')).toBeTruthy();
    expect(screen.queryByTestId('check-exit-ip')).toBeNull();

    result = 'username-missing';
    fireEvent.click(screen.getByTestId('check-run'));
    expect((await screen.findByTestId('check-refusal')).textContent).toBe('The template requires {city}: server words');
    expect(shownMessages('error')).toEqual([]);
  });

  it('shows an area the provider does not serve, and an exit the provider reports, in Chinese', async () => {
    act(() => setLanguage('zh'));
    let result: TPoolCheckResult = {
      ...CHECK_BASE,
      outcome: 'area-not-served',
      area: 'fr',
      is_covered: false,
      exit_ip: null,
      exit_country: null,
      provider_exit_ip: null,
      provider_exit_country: null,
      latency_ms: null,
      connect_ms: null,
      provider_status: 'HTTP 403 Forbidden',
      provider_detail: 'No peers available in the requested location',
    };
    api.on('adminPoolCheck', () => result);
    render();
    fireEvent.click(await screen.findByTestId('check-2'));
    await screen.findByTestId('check-form');
    fireEvent.click(screen.getByTestId('check-run'));
    expect(await screen.findByText('两位国家代码，例如 us')).toBeTruthy();
    expect(api.requestsTo('adminPoolCheck')).toHaveLength(0);
    fill('国家（ISO 代码）', 'fr');
    fireEvent.click(screen.getByTestId('check-run'));
    expect((await screen.findByTestId('check-failure')).textContent).toBe('不服务该地区：上游在此地区没有出口');
    expect(screen.getByText('No peers available in the requested location')).toBeTruthy();
    expect(screen.getByText('上游池的覆盖中没有 fr：仍已向上游请求。')).toBeTruthy();

    // A loopback exit has no country in the IP data: the provider's own report is shown as such.
    result = { ...CHECK_BASE, exit_ip: '127.0.1.1', exit_country: null, provider_exit_country: 'FR' };
    fireEvent.click(screen.getByTestId('check-run'));
    expect((await screen.findByTestId('check-exit-country')).textContent).toBe('FR（上游报告）');
    expect(screen.getByTestId('check-exit-ip').textContent).toBe('127.0.1.1');
  });

  it('imports coverage and spellings by CSV and lists the API’s line-numbered problems', async () => {
    api.on('adminPoolCoverage', (req) => {
      const body = req.json as { mode: 'all' | 'list'; csv: string };
      if (body.csv.includes('zz'))
        return fail(400, 400, 'Line 2: zz is not an ISO 3166-1 two-letter country code', {
          error: 'BAD_REQUEST',
          issues: [
            { path: 'csv', message: 'Line 2: zz is not an ISO 3166-1 two-letter country code' },
            { path: 'csv', message: 'Line 3: repeats line 1' },
          ],
        });
      return { ...detailOf(ENABLED), coverage_mode: 'list' as const, coverage_count: 2 };
    });
    api.on('adminPoolAreaMapping', () =>
      fail(400, 400, 'Line 1: the spelling new-york contains "-" (U+002D)', {
        error: 'BAD_REQUEST',
        issues: [{ path: 'csv', message: 'Line 1: the spelling new-york contains "-" (U+002D)' }],
      }),
    );
    render();
    fireEvent.click(await screen.findByTestId('areas-1'));
    fireEvent.click(await screen.findByText('A list of areas'));
    fill('Coverage list (CSV)', 'us\nzz\nus');
    fireEvent.click(screen.getByTestId('coverage-save'));
    const errors = await screen.findByTestId('csv-errors');
    expect(within(errors).getByText('2 problem(s); nothing was changed')).toBeTruthy();
    expect(within(errors).getByText('Line 2: zz is not an ISO 3166-1 two-letter country code')).toBeTruthy();
    expect(within(errors).getByText('Line 3: repeats line 1')).toBeTruthy();
    fill('Coverage list (CSV)', 'us\nde');
    fireEvent.click(screen.getByTestId('coverage-save'));
    await waitFor(() => expect(shownMessages('success')).toContain('Coverage saved: 2 area(s)'));
    expect(api.requestsTo('adminPoolCoverage').at(-1)!.json).toEqual({ id: 1, mode: 'list', csv: 'us\nde' });

    fireEvent.click(screen.getByText('Area spellings'));
    // The current spellings are filled in.
    const spellings = (await screen.findByLabelText('Area spellings (CSV)')) as HTMLTextAreaElement;
    await waitFor(() => expect(spellings.value).toBe('us,california,,us_california'));
    fill('Area spellings (CSV)', 'us,new york,,new-york');
    fireEvent.click(screen.getByTestId('spellings-save'));
    expect(await screen.findByText('Line 1: the spelling new-york contains "-" (U+002D)')).toBeTruthy();
  });
});
