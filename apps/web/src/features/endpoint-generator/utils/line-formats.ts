import { EXPORT_LINE_FORMATS, type TExportLineFormat, type TProxyNetwork } from '@proxy/contract';

/** How each line format looks; code-like, the same in every language. */
export const LINE_FORMAT_LABELS: Record<TExportLineFormat, string> = {
  hpup: 'host:port:user:pass',
  upahp: 'user:pass@host:port',
  http: 'http://user:pass@host:port',
  socks5: 'socks5://user:pass@host:port',
};

/** Options of the line format picker, in the contract's order. */
export const LINE_FORMAT_OPTIONS = EXPORT_LINE_FORMATS.map((value) => ({ value, label: LINE_FORMAT_LABELS[value] }));

/** The scheme-bearing format that contradicts a token's network (socks5:// for HTTP tokens and back), if any. */
export function isFormatAgainstNetwork(format: TExportLineFormat, network: TProxyNetwork): boolean {
  return (format === 'socks5' && network === 'HTTP') || (format === 'http' && network === 'SOCKS5');
}
