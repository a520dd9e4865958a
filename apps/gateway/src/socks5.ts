/**
 * SOCKS5 (RFC 1928) with username/password authentication (RFC 1929):
 * incremental parsers for the three client messages and the server replies.
 * Each parser takes the bytes received so far and answers "need more",
 * a parsed message with the number of bytes it used, or an error.
 */

/** SOCKS protocol version byte. */
export const SOCKS_VERSION = 0x05;
/** Method: username/password (RFC 1929). */
export const METHOD_USERPASS = 0x02;
/** Method reply: no acceptable methods. */
export const METHOD_NONE_ACCEPTABLE = 0xff;

/** CONNECT reply codes (RFC 1928 section 6). */
export const SOCKS_REPLY = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowed: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  ttlExpired: 0x06,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;

/** Parse outcome: more bytes needed, a message and its length, or a protocol error. */
export type TParse<T> =
  { status: 'more' } | { status: 'ok'; value: T; used: number } | { status: 'error'; error: string };

const MORE = { status: 'more' } as const;
const fail = (error: string) => ({ status: 'error', error }) as const;

/** Client greeting: version and offered methods. */
export function parseGreeting(buf: Buffer): TParse<{ methods: number[] }> {
  if (buf.length < 2) return MORE;
  if (buf[0] !== SOCKS_VERSION) return fail('version');
  const count = buf[1];
  if (count === 0) return fail('no-methods');
  if (buf.length < 2 + count) return MORE;
  return { status: 'ok', value: { methods: [...buf.subarray(2, 2 + count)] }, used: 2 + count };
}

/** RFC 1929 sub-negotiation: username and password (1-255 bytes each, UTF-8). */
export function parseUserPass(buf: Buffer): TParse<{ username: string; password: string }> {
  if (buf.length < 2) return MORE;
  if (buf[0] !== 0x01) return fail('auth-version');
  const ulen = buf[1];
  if (ulen === 0) return fail('empty-username');
  if (buf.length < 2 + ulen + 1) return MORE;
  const plen = buf[2 + ulen];
  if (buf.length < 3 + ulen + plen) return MORE;
  return {
    status: 'ok',
    value: { username: buf.toString('utf8', 2, 2 + ulen), password: buf.toString('utf8', 3 + ulen, 3 + ulen + plen) },
    used: 3 + ulen + plen,
  };
}

/** A CONNECT target: IPv4, IPv6 or a domain name (resolved at the exit). */
export type TSocksTarget = { host: string; port: number; type: 'ipv4' | 'ipv6' | 'domain' };

/** Client request: only CONNECT is supported; other commands parse so they can be refused properly. */
export function parseRequest(buf: Buffer): TParse<{ command: number; target: TSocksTarget }> {
  if (buf.length < 5) return MORE;
  if (buf[0] !== SOCKS_VERSION) return fail('version');
  if (buf[2] !== 0x00) return fail('reserved');
  const command = buf[1];
  const atyp = buf[3];
  let host: string;
  let offset: number;
  let type: TSocksTarget['type'];
  if (atyp === 0x01) {
    if (buf.length < 10) return MORE;
    host = [...buf.subarray(4, 8)].join('.');
    offset = 8;
    type = 'ipv4';
  } else if (atyp === 0x04) {
    if (buf.length < 22) return MORE;
    const groups: string[] = [];
    for (let i = 0; i < 8; i++) groups.push(buf.readUInt16BE(4 + i * 2).toString(16));
    host = groups.join(':');
    offset = 20;
    type = 'ipv6';
  } else if (atyp === 0x03) {
    const len = buf[4];
    if (len === 0) return fail('empty-domain');
    if (buf.length < 5 + len + 2) return MORE;
    host = buf.toString('latin1', 5, 5 + len);
    if (!/^[a-zA-Z0-9.-]+$/.test(host)) return fail('domain');
    offset = 5 + len;
    type = 'domain';
  } else {
    return fail('address-type');
  }
  const port = buf.readUInt16BE(offset);
  if (port === 0) return fail('port');
  return { status: 'ok', value: { command, target: { host, port, type } }, used: offset + 2 };
}

/** Server reply to the greeting. */
export function methodReply(method: number): Buffer {
  return Buffer.from([SOCKS_VERSION, method]);
}

/** Server reply to the RFC 1929 sub-negotiation: 0 success, anything else failure. */
export function authReply(isOk: boolean): Buffer {
  return Buffer.from([0x01, isOk ? 0x00 : 0x01]);
}

/** Server reply to a request; the bound address is 0.0.0.0:0 (clients ignore it for CONNECT). */
export function requestReply(code: number): Buffer {
  return Buffer.from([SOCKS_VERSION, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
}

/** Builds a client request (used by the chaining code to talk to upstream SOCKS5 proxies). */
export function buildConnectRequest(host: string, port: number): Buffer {
  const portBuf = Buffer.alloc(2);
  portBuf.writeUInt16BE(port);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return Buffer.concat([Buffer.from([SOCKS_VERSION, 0x01, 0x00, 0x01, ...v4.slice(1).map(Number)]), portBuf]);
  if (host.includes(':')) {
    const clean = host.replace(/^\[|\]$/g, '');
    const [head, tail = ''] = clean.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = clean.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
    const bytes = Buffer.alloc(16);
    groups.forEach((g, i) => bytes.writeUInt16BE(parseInt(g || '0', 16), i * 2));
    return Buffer.concat([Buffer.from([SOCKS_VERSION, 0x01, 0x00, 0x04]), bytes, portBuf]);
  }
  const name = Buffer.from(host, 'latin1');
  return Buffer.concat([Buffer.from([SOCKS_VERSION, 0x01, 0x00, 0x03, name.length]), name, portBuf]);
}

/** Builds the RFC 1929 sub-negotiation (for upstream SOCKS5 proxies). */
export function buildUserPass(username: string, password: string): Buffer {
  const u = Buffer.from(username, 'utf8');
  const p = Buffer.from(password, 'utf8');
  if (u.length === 0 || u.length > 255 || p.length > 255)
    throw new RangeError('SOCKS5 credentials must be 1-255 bytes');
  return Buffer.concat([Buffer.from([0x01, u.length]), u, Buffer.from([p.length]), p]);
}
