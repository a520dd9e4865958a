import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ZV1Endpoint, buildOpenApi } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { fail, raw } from '../../../test/api-stub';
import { makeArea, makeToken, makeUser, pageOf } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import ApiDocsPage from './api-docs-page';

const KEY = 'pk_abcdefghijklmnopqrstuvwxyz123456';
const NEW_KEY = 'pk_zyxwvutsrqponmlkjihgfedcba654321';
const dynamicToken = makeToken({
  token_id: 31,
  product: 'dynamic',
  area: { country: 'de', state: '', city: '', country_name: 'Germany', state_name: '', city_name: '' },
});

function renderPage() {
  return renderAt('/api-docs', <ApiDocsPage />);
}

// A user whose key can be reset, the real OpenAPI document, one dynamic proxy in Germany.
beforeEach(() => {
  let currentKey = KEY;
  api.on('userInfo', () => makeUser({ user_id: 42, token: currentKey }));
  api.on('userApiKeyReset', () => {
    currentKey = NEW_KEY;
    return { token: NEW_KEY };
  });
  // The real document of the route table, served as the server does (raw JSON, no envelope).
  api.on('openapi', () =>
    raw(JSON.stringify(buildOpenApi()), { headers: { 'content-type': 'application/json; charset=utf-8' } }),
  );
  api.on('tokenListIspDynamic', () => pageOf([dynamicToken], 1));
  api.on('tokenListIspStatic', () => pageOf([], 1));
  api.on('tokenListIdcStatic', () => pageOf([], 1));
  api.on('tokenAreaCountries', () => [makeArea('de', 'Germany', '德国', 2)]);
});

describe('API docs page', () => {
  it('current token: masked, revealed, with the keep-it-secret warning', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a\*+3456$/));
    expect(screen.getByText('Keep your API key secret')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Show/ }));
    expect(screen.getByTestId('api-key').textContent).toBe(KEY);
    expect(screen.getByText(`${window.location.origin}/api/v1`)).toBeTruthy();
  });

  it('resets the key after confirmation and shows the new one', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a/));
    fireEvent.click(screen.getByRole('button', { name: /Reset key/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/the current one stops working at once/)).toBeTruthy();
    expect(api.requestsTo('userApiKeyReset')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_z\*+4321$/));
    expect(api.requestsTo('userApiKeyReset')).toHaveLength(1);
    expect(shownMessages('success')).toContain('A new API key was created');
  });

  it('proxy API tab: calls from the OpenAPI document with parameters, answers and working curl commands with the key', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a/));
    fireEvent.click(screen.getByRole('tab', { name: /Proxy API/ }));
    const endpoints = await screen.findByTestId('operation-v1Endpoints');
    expect(within(endpoints).getByText('/api/v1/endpoints')).toBeTruthy();
    expect(within(endpoints).getByText('GET')).toBeTruthy();
    for (const name of ['proxyId', 'countryId', 'stateId', 'cityId', 'networkType', 'limit'])
      expect(within(endpoints).getByText(name)).toBeTruthy();
    expect(screen.getByTestId('operation-v1Proxies')).toBeTruthy();
    expect(screen.queryByTestId('operation-v1AreaCountries')).toBeNull();
    // The shown command hides the key until it is revealed; it uses the user's proxy and the page's origin.
    const origin = window.location.origin;
    await waitFor(() =>
      expect(within(endpoints).getByLabelText('Example request').textContent).toMatch(
        new RegExp(
          `^curl -H "X-API-Key: pk_a\\*+3456" "${origin.replace(/[.]/g, '\\.')}/api/v1/endpoints\\?proxyId=31&limit=10&format=text"$`,
        ),
      ),
    );
    fireEvent.click(screen.getByRole('tab', { name: /Current token/ }));
    fireEvent.click(screen.getByRole('button', { name: /Show/ }));
    fireEvent.click(screen.getByRole('tab', { name: /Proxy API/ }));
    expect(within(screen.getByTestId('operation-v1Endpoints')).getByLabelText('Example request').textContent).toBe(
      `curl -H "X-API-Key: ${KEY}" "${origin}/api/v1/endpoints?proxyId=31&limit=10&format=text"`,
    );
    // The answers are the contract's examples.
    const example = (ZV1Endpoint.meta()?.examples as { line: string; username: string }[])[0];
    expect(within(endpoints).getByLabelText('Example answer (json)').textContent).toContain(
      `"username": "${example.username}"`,
    );
    expect(within(endpoints).getByLabelText('Example answer (text)').textContent).toBe(example.line);
  });

  it('area API tab: the three area calls, with a real country in the examples', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('api-key').textContent).toMatch(/^pk_a/));
    fireEvent.click(screen.getByRole('tab', { name: /Area API/ }));
    const states = await screen.findByTestId('operation-v1AreaStates');
    expect(screen.getByTestId('operation-v1AreaCountries')).toBeTruthy();
    expect(screen.getByTestId('operation-v1AreaCities')).toBeTruthy();
    expect(screen.queryByTestId('operation-v1Endpoints')).toBeNull();
    await waitFor(() =>
      expect(within(states).getByLabelText('Example request').textContent).toContain(
        '/api/v1/areas/states?countryId=de"',
      ),
    );
  });

  it('says when the description cannot be loaded', async () => {
    api.on('openapi', () => fail(500, 500, 'boom'));
    renderPage();
    fireEvent.click(screen.getByRole('tab', { name: /Proxy API/ }));
    expect(await screen.findByText('The API description could not be loaded')).toBeTruthy();
  });

  it('is translated into Chinese', async () => {
    act(() => setLanguage('zh'));
    renderPage();
    expect(await screen.findByRole('tab', { name: /当前令牌/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /代理 API/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /地区 API/ })).toBeTruthy();
    expect(await screen.findByText('请妥善保管您的 API 密钥')).toBeTruthy();
  });
});
