/** The popup's language: the stored choice, else the browser's (Chinese when it contains "zh", as the console does). */
export function pickLanguage(choice: 'auto' | 'zh' | 'en', browserLanguage: string | undefined): 'zh' | 'en' {
  if (choice !== 'auto') return choice;
  return (browserLanguage ?? '').toLowerCase().includes('zh') ? 'zh' : 'en';
}

const en = {
  title: 'ProxyHub browser plugin',
  enabled: 'Use the proxy',
  noProxy: 'No proxy yet. In the console, choose "Plugin setting" on an HTTP proxy.',
  notServed: 'This package was not downloaded from a console. Download it from the console’s “Plugin download” page.',
  proxy: 'Proxy',
  area: 'Area',
  expires: 'Expires',
  anyArea: 'Any',
  bypass: 'Sites that go direct',
  bypassHint: 'A host such as example.com, or *.example.com for its subdomains. The console itself always goes direct.',
  bypassAdd: 'Add',
  bypassRemove: 'Remove',
  bypassInvalid: 'Enter a host such as example.com or *.example.com',
  bypassFull: 'The list is full',
  checkIp: 'Check my IP',
  checking: 'Checking…',
  ipIs: 'Your IP: {ip}',
  ipFailed: 'The check failed: {reason}',
  ipSameOrigin: 'The echo is on the console’s address, which never goes through the proxy: this is your own IP.',
  language: 'Language',
  langAuto: 'Browser',
  on: 'On',
  off: 'Off',
};

const zh: typeof en = {
  title: 'ProxyHub 浏览器插件',
  enabled: '使用代理',
  noProxy: '还没有代理。请在控制台的 HTTP 代理上点击“插件设置”。',
  notServed: '此插件包不是从控制台下载的，请到控制台的“插件下载”页面下载。',
  proxy: '代理',
  area: '地区',
  expires: '到期时间',
  anyArea: '不限',
  bypass: '直连的网站',
  bypassHint: '填写主机名，如 example.com；*.example.com 包含其子域名。控制台本身始终直连。',
  bypassAdd: '添加',
  bypassRemove: '移除',
  bypassInvalid: '请输入主机名，如 example.com 或 *.example.com',
  bypassFull: '列表已满',
  checkIp: '查看我的 IP',
  checking: '查询中…',
  ipIs: '你的 IP：{ip}',
  ipFailed: '查询失败：{reason}',
  ipSameOrigin: '回显地址在控制台的地址上，该地址从不经过代理：显示的是你自己的 IP。',
  language: '语言',
  langAuto: '跟随浏览器',
  on: '开',
  off: '关',
};

/** The popup's texts by language (the same keys in both). */
export const TEXTS = { en, zh };
/** A text key of the popup. */
export type TTextKey = keyof typeof en;

/** A text in the language with `{placeholders}` filled. */
export function text(lang: 'zh' | 'en', key: TTextKey, params: Record<string, string> = {}): string {
  return TEXTS[lang][key].replace(/\{(\w+)\}/g, (all, name: string) => params[name] ?? all);
}
