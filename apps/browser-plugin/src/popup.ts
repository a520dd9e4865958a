// The popup: on/off, the current proxy, the per-site bypass list, "check my IP", the language.
import { text, pickLanguage, type TTextKey } from './i18n';
import { loadPackageConfig, type TPackageConfig } from './package-config';
import { BYPASS_MAX, normalizeBypassEntry, readSettings, type TStoredSettings } from './settings';

const app = document.getElementById('app')!;
let config: TPackageConfig | null = null;
let settings: TStoredSettings;
let ipLine = '';
let bypassError = '';

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function render(): void {
  const lang = pickLanguage(settings.lang, navigator.language);
  const t = (key: TTextKey, params?: Record<string, string>) => text(lang, key, params);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  app.replaceChildren(el('h1', { textContent: t('title') }));
  if (!config) {
    app.append(el('p', { className: 'error', textContent: t('notServed') }));
    return;
  }
  const proxy = settings.proxy;
  const toggle = el('input', { type: 'checkbox', id: 'enabled', checked: settings.enabled, disabled: !proxy });
  toggle.addEventListener('change', () => void chrome.storage.local.set({ enabled: toggle.checked }));
  app.append(el('label', { className: 'row card' }, el('span', { textContent: t('enabled') }), toggle));

  if (!proxy) {
    app.append(el('p', { className: 'muted', textContent: t('noProxy') }));
  } else {
    const area = [proxy.area.country, proxy.area.state, proxy.area.city].filter(Boolean).join(' / ') || t('anyArea');
    app.append(
      el(
        'dl',
        { className: 'card' },
        el('dt', { textContent: t('proxy') }),
        el('dd', { textContent: `${proxy.host}:${proxy.port}` }),
        el('dt', { textContent: t('area') }),
        el('dd', { textContent: area }),
        el('dt', { textContent: t('expires') }),
        el('dd', { textContent: new Date(proxy.expires_at).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en') }),
      ),
    );
    const check = el('button', { textContent: t('checkIp'), disabled: !settings.enabled });
    check.addEventListener('click', () => void checkIp(t));
    app.append(el('div', { className: 'row' }, check, el('span', { id: 'ip', textContent: ipLine })));
  }

  const input = el('input', { type: 'text', placeholder: 'example.com' });
  const add = el('button', { textContent: t('bypassAdd') });
  add.addEventListener('click', () => {
    const entry = normalizeBypassEntry(input.value);
    if (!entry) bypassError = t('bypassInvalid');
    else if (settings.bypass.length >= BYPASS_MAX) bypassError = t('bypassFull');
    else {
      bypassError = '';
      void chrome.storage.local.set({ bypass: [...new Set([...settings.bypass, entry])] });
      return;
    }
    render();
  });
  const list = el(
    'ul',
    {},
    ...settings.bypass.map((entry) => {
      const remove = el('button', { className: 'link', textContent: t('bypassRemove') });
      remove.addEventListener(
        'click',
        () => void chrome.storage.local.set({ bypass: settings.bypass.filter((b) => b !== entry) }),
      );
      return el('li', {}, el('span', { textContent: entry }), remove);
    }),
  );
  app.append(
    el(
      'section',
      { className: 'card' },
      el('div', { textContent: t('bypass') }),
      el('div', { className: 'row' }, input, add),
      el('div', { className: bypassError ? 'error' : 'muted', textContent: bypassError || t('bypassHint') }),
      list,
    ),
  );

  const select = el(
    'select',
    {},
    ...(['auto', 'zh', 'en'] as const).map((v) =>
      el('option', {
        value: v,
        selected: settings.lang === v,
        textContent: v === 'auto' ? t('langAuto') : v === 'zh' ? '中文' : 'English',
      }),
    ),
  );
  select.addEventListener('change', () => void chrome.storage.local.set({ lang: select.value }));
  app.append(el('label', { className: 'row' }, el('span', { textContent: t('language') }), select));
}

/** Fetches the console's echo through the proxy and shows the address it saw. */
async function checkIp(t: (key: TTextKey, params?: Record<string, string>) => string): Promise<void> {
  if (!config) return;
  ipLine = t('checking');
  render();
  try {
    const res = await fetch(config.echo_url, { cache: 'no-store', credentials: 'omit' });
    const body = (await res.json()) as { code?: number; msg?: string; data?: { ip?: string } };
    ipLine =
      body.code === 0 && body.data?.ip
        ? t('ipIs', { ip: body.data.ip })
        : t('ipFailed', { reason: body.msg ?? String(res.status) });
    if (new URL(config.echo_url).origin === config.console_origin) ipLine += ` ${t('ipSameOrigin')}`;
  } catch (error) {
    ipLine = t('ipFailed', { reason: error instanceof Error ? error.message : String(error) });
  }
  render();
}

async function start(): Promise<void> {
  config = await loadPackageConfig();
  settings = readSettings(await chrome.storage.local.get(null));
  render();
  chrome.storage.onChanged.addListener((_changes, area) => {
    if (area !== 'local') return;
    void chrome.storage.local.get(null).then((stored) => {
      settings = readSettings(stored);
      render();
    });
  });
}

void start();
