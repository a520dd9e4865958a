// The extension's service worker: hears the console (externally_connectable),
// keeps the browser's proxy in step with the stored settings, and answers the
// gateway's 407 with the proxy's credentials.
import type { TPluginRefusal } from '@proxy/contract/plugin-protocol';
import { handleExternalMessage } from './external';
import { importPublicKey, verifyGrant } from './grant';
import { loadPackageConfig, type TPackageConfig } from './package-config';
import { proxyConfigOf, readSettings, type TProxySettings, type TStoredSettings } from './settings';

const version = chrome.runtime.getManifest().version;
let configPromise: Promise<TPackageConfig | null> | undefined;
const packageConfig = () => (configPromise ??= loadPackageConfig());

async function loadSettings(): Promise<TStoredSettings> {
  return readSettings(await chrome.storage.local.get(null));
}

/** True when no other extension or policy holds the browser's proxy setting. */
async function canControlProxy(): Promise<boolean> {
  const current = await chrome.proxy.settings.get({ incognito: false });
  return (
    current.levelOfControl === 'controllable_by_this_extension' ||
    current.levelOfControl === 'controlled_by_this_extension'
  );
}

/** Sets the browser's proxy from the stored settings (system settings when off). */
async function applySettings(settings: TStoredSettings): Promise<void> {
  const config = await packageConfig();
  if (!config || !settings.enabled || !settings.proxy) {
    await chrome.proxy.settings.clear({ scope: 'regular' });
    return;
  }
  await chrome.proxy.settings.set({ scope: 'regular', value: proxyConfigOf(settings, config.console_origin) });
}

let syncing: Promise<void> = Promise.resolve();
/**
 * Brings the browser's proxy in step with the stored settings. One at a time,
 * each reading the settings when its turn comes: the last change stored is the
 * one the browser ends with, however the storage events and console calls interleave.
 */
function syncProxy(): Promise<void> {
  const run = syncing.then(async () => applySettings(await loadSettings()));
  syncing = run.catch(() => undefined);
  return run;
}

async function applyFromConsole(proxy: TProxySettings): Promise<TPluginRefusal | null> {
  if (!(await canControlProxy())) return 'proxy-not-controllable';
  await chrome.storage.local.set({ enabled: true, proxy });
  await syncProxy();
  return null;
}

chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  void (async () => {
    const config = await packageConfig();
    const answer = await handleExternalMessage(message, sender, {
      consoleOrigin: config?.console_origin ?? null,
      version,
      verify: async (grant) => {
        if (!config) return { ok: false, reason: 'bad-grant' };
        const publicKey = await importPublicKey(config.public_key);
        return verifyGrant(grant, {
          publicKey,
          consoleOrigin: config.console_origin,
          nowS: Math.floor(Date.now() / 1000),
        });
      },
      apply: applyFromConsole,
      activeTokenId: async () => {
        const settings = await loadSettings();
        return settings.enabled ? (settings.proxy?.token_id ?? null) : null;
      },
    });
    sendResponse(answer);
  })();
  return true; // the answer is sent asynchronously
});

// The popup and the tests change the stored settings; the browser follows.
chrome.storage.onChanged.addListener((_changes, area) => {
  if (area === 'local') void syncProxy().catch(() => undefined);
});
// Nothing stored reads as the defaults (readSettings), so installing writes nothing: a
// write of defaults here could land after a first change and undo it.
chrome.runtime.onInstalled.addListener(() => void syncProxy().catch(() => undefined));
chrome.runtime.onStartup.addListener(() => void syncProxy().catch(() => undefined));

// Requests already answered once for a proxy challenge: a second 407 means the credentials were refused.
const answered = new Set<string>();

chrome.webRequest.onAuthRequired.addListener(
  (details, callback) => {
    void (async () => {
      const settings = await loadSettings();
      const proxy = settings.proxy;
      const isOurProxy =
        details.isProxy &&
        settings.enabled &&
        proxy !== null &&
        details.challenger.host.replace(/^\[|\]$/g, '') === proxy.host.replace(/^\[|\]$/g, '') &&
        details.challenger.port === proxy.port;
      if (!isOurProxy || answered.has(details.requestId)) {
        callback?.(isOurProxy ? { cancel: true } : {});
        return;
      }
      answered.add(details.requestId);
      callback?.({ authCredentials: { username: proxy.username, password: proxy.password } });
    })();
    return undefined; // answered through the callback
  },
  { urls: ['<all_urls>'] },
  ['asyncBlocking'],
);
const forget = (details: { requestId: string }) => void answered.delete(details.requestId);
chrome.webRequest.onCompleted.addListener(forget, { urls: ['<all_urls>'] });
chrome.webRequest.onErrorOccurred.addListener(forget, { urls: ['<all_urls>'] });
