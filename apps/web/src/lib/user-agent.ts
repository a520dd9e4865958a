/**
 * A short reading of a User-Agent header for the session list: the browser
 * with its major version and the operating system, e.g. "Chrome 120" and
 * "Windows 10". Only what a person recognises their device by; anything
 * unknown keeps the header's first product token, or nothing.
 */

/** What the session list shows of a device. */
export type TDeviceInfo = {
  /** e.g. "Chrome 120", "Safari 17", "curl 8"; empty when unknown. */
  browser: string;
  /** e.g. "Windows 10", "macOS", "iOS 17.1", "Android 14"; empty when unknown. */
  os: string;
  /** A phone or a tablet. */
  isMobile: boolean;
};

/** Browsers in the order they must be tested: one that copies another's token (Edge says "Chrome" too) comes first. */
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['WeChat', /\bMicroMessenger\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Headless Chrome', /\bHeadlessChrome\/(\d+)/],
  ['Chromium', /\bChromium\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\S+)? Safari\//],
];

const WINDOWS_VERSIONS: Record<string, string> = {
  '10.0': '10',
  '6.3': '8.1',
  '6.2': '8',
  '6.1': '7',
  '6.0': 'Vista',
  '5.1': 'XP',
};

function readOs(ua: string): string {
  const ios = /\b(iPhone|iPad|iPod)\b.*?\bOS (\d+)(?:_(\d+))?/.exec(ua);
  if (ios) return `${ios[1] === 'iPad' ? 'iPadOS' : 'iOS'} ${ios[2]}${ios[3] ? `.${ios[3]}` : ''}`;
  const android = /\bAndroid (\d+(?:\.\d+)?)/.exec(ua);
  if (android) return `Android ${android[1]}`;
  const windows = /\bWindows NT (\d+\.\d+)/.exec(ua);
  if (windows) return WINDOWS_VERSIONS[windows[1]] ? `Windows ${WINDOWS_VERSIONS[windows[1]]}` : 'Windows';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bUbuntu\b/.test(ua)) return 'Ubuntu';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return '';
}

function readBrowser(ua: string): string {
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) return `${name} ${match[1]}`;
  }
  // A program rather than a browser ("curl/8.5.0", "python-requests/2.31"): its own name and major version.
  const product = /^([A-Za-z][\w.-]*)\/(\d+)/.exec(ua);
  return product && product[1] !== 'Mozilla' ? `${product[1]} ${product[2]}` : '';
}

/** The browser, the system and whether it is a mobile device, read from a User-Agent header. */
export function describeUserAgent(userAgent: string): TDeviceInfo {
  const ua = userAgent.trim();
  return {
    browser: readBrowser(ua),
    os: readOs(ua),
    isMobile: /\b(Mobi|iPhone|iPad|iPod|Android)\b/.test(ua),
  };
}
