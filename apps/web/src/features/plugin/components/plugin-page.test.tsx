import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { TPluginInfo } from '@proxy/contract';
import { makeToken, pageOf } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import PluginPage from './plugin-page';

const INFO: TPluginInfo = {
  available: true,
  version: '1.0.0',
  extension_id: 'fgdnachjmmeddnooilhgjkpominabnlc',
  size: 20_480,
  file_name: 'proxyhub-browser-plugin.zip',
};

beforeEach(() => {
  api.on('pluginInfo', () => INFO);
  for (const list of ['tokenListIspStatic', 'tokenListIspDynamic', 'tokenListIdcStatic'] as const)
    api.on(list, () => pageOf([]));
  api.on('tokenListIspStatic', () =>
    pageOf([
      makeToken({ token_id: 1, username: 'uhttp' }),
      makeToken({ token_id: 2, username: 'usocks', network: 'SOCKS5' }),
    ]),
  );
  Object.assign(globalThis, {
    chrome: {
      runtime: {
        sendMessage: (_id: string, message: { type: string }, callback: (value: unknown) => void) =>
          queueMicrotask(() =>
            callback(
              message.type === 'hello' ? { ok: true, type: 'hello', version: '0.9.0', active_token_id: 1 } : undefined,
            ),
          ),
      },
    },
  });
});

afterEach(() => {
  delete (globalThis as { chrome?: unknown }).chrome;
});

describe('/tools/plugin', () => {
  it('offers the download of the current build and says what this browser has installed', async () => {
    renderAt('/tools/plugin', <PluginPage />);
    const download = (await screen.findByText('Download the plugin (zip)')).closest('a')!;
    expect(download.getAttribute('href')).toBe('/api/plugin/download');
    expect(screen.getByText('Version 1.0.0 · 20.0 KB')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('plugin-status').getAttribute('data-status')).toBe('installed'));
    expect(screen.getByTestId('plugin-status').textContent).toContain('Installed, version 0.9.0');
    expect(screen.getByTestId('plugin-status').textContent).toContain('version 1.0.0 is available');
    expect(screen.getByTestId('plugin-status').textContent).toContain('It is using proxy #1.');
    // The installation steps, each with its picture.
    expect(screen.getByText(/Turn on "Developer mode"/)).toBeTruthy();
    expect(screen.getAllByRole('img', { name: /The extensions page, with/ })).toHaveLength(4);
  });

  it('says when the server has no build to offer', async () => {
    api.on('pluginInfo', () => ({ ...INFO, available: false, version: null, extension_id: null, size: null }));
    renderAt('/tools/plugin', <PluginPage />);
    expect(await screen.findByText('The plugin has not been built on this server yet (npm run build).')).toBeTruthy();
  });
});
