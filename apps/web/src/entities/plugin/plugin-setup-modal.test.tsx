import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import type { TPluginAnswer, TPluginInfo } from '@proxy/contract';
import { setLanguage } from '../../lib/i18n';
import { fail } from '../../test/api-stub';
import { makeToken } from '../../test/fixtures';
import { api } from '../../test/harness';
import { renderAt } from '../../test/render';
import { PluginSetupModal } from './plugin-setup-modal';

const INFO: TPluginInfo = {
  available: true,
  version: '1.0.0',
  extension_id: 'fgdnachjmmeddnooilhgjkpominabnlc',
  size: 20_000,
  file_name: 'proxyhub-browser-plugin.zip',
};

/** What the page's chrome.runtime received, and how the stub plugin answers. */
const sent: { id: string; message: unknown }[] = [];
let answer: TPluginAnswer;

beforeEach(() => {
  sent.length = 0;
  answer = { ok: true, type: 'apply', version: '1.0.0', token_id: 5 };
  api.on('pluginInfo', () => INFO);
  api.on('pluginGrant', () => ({ grant: 'signed.grant', expires_at: '2026-01-01T00:02:00.000Z' }));
  Object.assign(globalThis, {
    chrome: {
      runtime: {
        sendMessage: (id: string, message: unknown, callback: (value: unknown) => void) => {
          sent.push({ id, message });
          queueMicrotask(() => callback(answer));
        },
      },
    },
  });
});

afterEach(() => {
  delete (globalThis as { chrome?: unknown }).chrome;
});

const state = () => screen.getByTestId('plugin-setup-state').getAttribute('data-state');

describe('plugin setting of a proxy', () => {
  it('asks the server for a grant and hands it to the plugin, then says it is configured', async () => {
    renderAt(
      '/proxy/isp/static',
      <PluginSetupModal
        token={makeToken({ token_id: 5, host: 'gw.example.com', port: 7000 })}
        onClose={() => undefined}
      />,
    );
    await waitFor(() => expect(state()).toBe('success'));
    expect(screen.getByTestId('plugin-setup-state').textContent).toContain('gw.example.com:7000');
    expect(api.requestsTo('pluginGrant').map((r) => r.json)).toEqual([{ token_id: 5 }]);
    expect(sent).toEqual([{ id: INFO.extension_id, message: { type: 'apply', grant: 'signed.grant' } }]);
  });

  it("shows the plugin's refusal with its reason, in English and Chinese", async () => {
    answer = { ok: false, reason: 'wrong-origin' };
    renderAt('/proxy/isp/static', <PluginSetupModal token={makeToken({ token_id: 5 })} onClose={() => undefined} />);
    await waitFor(() => expect(state()).toBe('error'));
    expect(screen.getByTestId('plugin-setup-state').textContent).toContain('downloaded from another console address');

    cleanup();
    act(() => setLanguage('zh'));
    renderAt('/proxy/isp/static', <PluginSetupModal token={makeToken({ token_id: 5 })} onClose={() => undefined} />);
    await waitFor(() => expect(state()).toBe('error'));
    expect(screen.getByTestId('plugin-setup-state').textContent).toContain('其他控制台地址');
  });

  it('refuses SOCKS5 at once: no grant asked, nothing sent to the plugin', async () => {
    renderAt(
      '/proxy/isp/static',
      <PluginSetupModal token={makeToken({ token_id: 6, network: 'SOCKS5' })} onClose={() => undefined} />,
    );
    await waitFor(() => expect(state()).toBe('error'));
    expect(screen.getByTestId('plugin-setup-state').textContent).toContain('does not support SOCKS5');
    expect(api.requestsTo('pluginGrant')).toHaveLength(0);
    expect(sent).toHaveLength(0);
  });

  it("shows the server's refusal of the grant in place", async () => {
    api.on('pluginGrant', () => fail(404, 404, 'Resource or endpoint not found'));
    renderAt('/proxy/isp/static', <PluginSetupModal token={makeToken({ token_id: 7 })} onClose={() => undefined} />);
    await waitFor(() => expect(state()).toBe('error'));
    expect(screen.getByTestId('plugin-setup-state').textContent).toContain('Resource or endpoint not found');
    expect(sent).toHaveLength(0);
  });

  it('says the plugin is not built when the server has none', async () => {
    api.on('pluginInfo', () => ({ ...INFO, available: false, version: null, extension_id: null, size: null }));
    renderAt('/proxy/isp/static', <PluginSetupModal token={makeToken({ token_id: 5 })} onClose={() => undefined} />);
    await waitFor(() => expect(state()).toBe('error'));
    expect(screen.getByTestId('plugin-setup-state').textContent).toContain('has not been built on this server');
  });
});
