/**
 * HTTP/1.x message framing, read from the bytes (RFC 9112): request and
 * response heads, where a body ends (Content-Length, chunked, or the close of
 * the connection), and the Basic proxy credentials. The forwarder parses only
 * this much and passes everything else through as it came.
 */

/** A parsed request head. `lines` are the header lines as received, less the proxy's own (hop-by-hop) ones. */
export type TRequestHead = {
  method: string;
  target: string;
  /** HTTP/1.`minor`. */
  minor: 0 | 1;
  lines: string[];
  /** null: no Content-Length. */
  contentLength: number | null;
  isChunked: boolean;
  proxyAuthorization?: string;
  hasHost: boolean;
  /** The client wants the connection kept after the answer. */
  isKeepAlive: boolean;
};

/** A parsed response head. */
export type TResponseHead = {
  minor: 0 | 1;
  status: number;
  /** Header lines to pass on; null when the head passes through unchanged. */
  lines: string[] | null;
  statusLine: string;
  contentLength: number | null;
  isChunked: boolean;
  /** Transfer-Encoding without chunked last: the body ends with the connection. */
  isCloseDelimited: boolean;
  /** The origin will close its side after this answer. */
  isClosing: boolean;
};

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values: visible characters, spaces, tabs and obs-text; no other control character.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const BAD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/1\.([01])$/;
// eslint-disable-next-line no-control-regex -- a reason phrase has no control character
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\x00-\x08\x0a-\x1f\x7f]*)?$/;
const DIGITS = /^\d{1,15}$/;

// Hop-by-hop headers (RFC 9110 section 7.6.1) and the proxy's own, never passed on. Transfer-Encoding
// and Trailer stay: chunked bodies are passed through as they are.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'upgrade',
]);

type TFields = {
  kept: string[];
  contentLength: number | null;
  hasDuplicateLength: boolean;
  transferEncoding: string | null;
  connection: string;
  proxyAuthorization?: string;
  hasHost: boolean;
  /** Some header was left out. */
  isChanged: boolean;
};

// Reads header lines 1..n of a head; null when one is malformed (no colon, a bad name, space before the colon, a folded line, a control character).
function readFields(lines: string[]): TFields | null {
  const f: TFields = {
    kept: [],
    contentLength: null,
    hasDuplicateLength: false,
    transferEncoding: null,
    connection: '',
    hasHost: false,
    isChanged: false,
  };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return null;
    const value = line.slice(colon + 1).trim();
    if (BAD_VALUE.test(value)) return null;
    const lower = name.length <= 19 ? name.toLowerCase() : '';
    if (lower === 'content-length') {
      if (!DIGITS.test(value)) return null;
      if (f.contentLength !== null) f.hasDuplicateLength = true;
      f.contentLength = Number(value);
    } else if (lower === 'transfer-encoding') {
      f.transferEncoding =
        f.transferEncoding === null ? value.toLowerCase() : `${f.transferEncoding}, ${value.toLowerCase()}`;
    } else if (lower === 'host') {
      f.hasHost = true;
    } else if (HOP_BY_HOP.has(lower)) {
      if (lower === 'connection' || lower === 'proxy-connection') f.connection += `${value.toLowerCase()},`;
      else if (lower === 'proxy-authorization') f.proxyAuthorization = value;
      f.isChanged = true;
      continue;
    }
    f.kept.push(line);
  }
  // Headers the Connection header names are hop-by-hop too.
  const named = f.connection
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t && t !== 'close' && t !== 'keep-alive');
  if (named.length) {
    f.kept = f.kept.filter((line) => !named.includes(line.slice(0, line.indexOf(':')).toLowerCase()));
    f.isChanged = true;
  }
  return f;
}

// chunked must be the last coding, once (RFC 9112 section 6.1).
function chunkedLast(te: string): boolean | null {
  const codings = te
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const chunked = codings.filter((c) => c === 'chunked').length;
  if (chunked > 1 || (chunked === 1 && codings[codings.length - 1] !== 'chunked')) return null;
  return chunked === 1;
}

/**
 * A request head (without the blank line), or the reason it is refused:
 * malformed, or framed ambiguously (request smuggling): Transfer-Encoding
 * with Content-Length, more than one Content-Length, a coding other than
 * chunked last (RFC 9112 sections 6.1 and 6.3).
 */
export function parseRequestHead(text: string): TRequestHead | 'malformed' | 'ambiguous' {
  const lines = text.split('\r\n');
  const m = REQUEST_LINE.exec(lines[0]);
  if (!m) return 'malformed';
  const f = readFields(lines);
  if (!f) return 'malformed';
  let isChunked = false;
  if (f.transferEncoding !== null) {
    const last = chunkedLast(f.transferEncoding);
    if (!last || f.contentLength !== null || m[3] === '0') return 'ambiguous';
    isChunked = true;
  }
  if (f.hasDuplicateLength) return 'ambiguous';
  const minor = m[3] === '1' ? 1 : 0;
  const connection = f.connection;
  return {
    method: m[1],
    target: m[2],
    minor,
    lines: f.kept,
    contentLength: f.contentLength,
    isChunked,
    proxyAuthorization: f.proxyAuthorization,
    hasHost: f.hasHost,
    isKeepAlive: minor === 1 ? !/(^|,)\s*close\s*,/.test(connection) : /(^|,)\s*keep-alive\s*,/.test(connection),
  };
}

/** A response head (without the blank line), or null when it is malformed or framed ambiguously. */
export function parseResponseHead(text: string): TResponseHead | null {
  const lines = text.split('\r\n');
  const m = STATUS_LINE.exec(lines[0]);
  if (!m) return null;
  const f = readFields(lines);
  if (!f) return null;
  let isChunked = false;
  let isCloseDelimited = false;
  let contentLength = f.contentLength;
  if (f.transferEncoding !== null) {
    const last = chunkedLast(f.transferEncoding);
    if (last === null) return null;
    isChunked = last;
    isCloseDelimited = !last;
    if (contentLength !== null) {
      // Transfer-Encoding overrides Content-Length, which is not passed on (RFC 9112 section 6.3).
      f.kept = f.kept.filter((line) => !/^content-length:/i.test(line));
      f.isChanged = true;
      contentLength = null;
    }
  } else if (f.hasDuplicateLength) {
    // Identical repeated values may stand for one (RFC 9112 section 6.3); different ones may not.
    const values = new Set(
      lines.filter((l) => /^content-length:/i.test(l)).map((l) => l.slice(l.indexOf(':') + 1).trim()),
    );
    if (values.size > 1) return null;
  }
  const minor = m[1] === '1' ? 1 : 0;
  return {
    minor,
    status: Number(m[2]),
    lines: f.isChanged ? f.kept : null,
    statusLine: lines[0],
    contentLength,
    isChunked,
    isCloseDelimited: isCloseDelimited || (!isChunked && contentLength === null),
    isClosing: minor === 1 ? /(^|,)\s*close\s*,/.test(f.connection) : !/(^|,)\s*keep-alive\s*,/.test(f.connection),
  };
}

/** An absolute http:// request target: host, port and the origin-form path. */
export function parseAbsoluteTarget(
  target: string,
): { host: string; port: number; authority: string; path: string } | null {
  if (target.length < 8 || target.slice(0, 7).toLowerCase() !== 'http://') return null;
  let end = 7;
  while (end < target.length && target[end] !== '/' && target[end] !== '?' && target[end] !== '#') end++;
  const authority = target.slice(7, end);
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9._~%!$&'()*+,;=-]+))(?::(\d{1,5}))?$/.exec(authority);
  if (!m) return null;
  const port = m[3] === undefined ? 80 : Number(m[3]);
  if (port < 1 || port > 65535) return null;
  let path = target.slice(end);
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  if (path === '' || path[0] === '?') path = `/${path}`;
  return { host: m[1] ?? m[2], port, authority, path };
}

/** A body's framing: how many bytes of a buffer belong to it, and whether it has ended. */
export type TBodyFrame = {
  /** Bytes of `buf` from `from` that belong to the body; -1 when the framing is broken. */
  take(buf: Buffer, from: number): number;
  isDone: boolean;
};

/** A body of `length` bytes. */
export class LengthBody implements TBodyFrame {
  isDone: boolean;
  constructor(private left: number) {
    this.isDone = left === 0;
  }
  take(buf: Buffer, from: number): number {
    const n = Math.min(this.left, buf.length - from);
    this.left -= n;
    this.isDone = this.left === 0;
    return n;
  }
}

/** A body that ends with the connection. */
export class UntilCloseBody implements TBodyFrame {
  isDone = false;
  take(buf: Buffer, from: number): number {
    return buf.length - from;
  }
}

// States of the chunked reader.
const Chunk = {
  Size: 0,
  Extension: 1,
  SizeLf: 2,
  Data: 3,
  DataCr: 4,
  DataLf: 5,
  TrailerStart: 6,
  TrailerLine: 7,
  TrailerLf: 8,
  EndLf: 9,
} as const;

// Longest chunk-size line and trailer section read.
const CHUNK_LINE_LIMIT = 4096;
const TRAILER_LIMIT = 16 * 1024;

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/**
 * A chunked body (RFC 9112 section 7.1), read to find where it ends: chunk
 * sizes in hex (at most 12 digits), extensions, CRLF after each chunk, the
 * trailer section. Anything else breaks the framing. The bytes themselves
 * pass on unchanged.
 */
export class ChunkedBody implements TBodyFrame {
  isDone = false;
  private state: number = Chunk.Size;
  private size = 0;
  private digits = 0;
  private lineLength = 0;
  private trailerLength = 0;

  take(buf: Buffer, from: number): number {
    let i = from;
    const n = buf.length;
    while (i < n) {
      const byte = buf[i];
      switch (this.state) {
        case Chunk.Size: {
          const v = hexValue(byte);
          if (v >= 0) {
            if (++this.digits > 12) return -1;
            this.size = this.size * 16 + v;
          } else if (this.digits === 0) {
            return -1;
          } else if (byte === 0x0d) {
            this.state = Chunk.SizeLf;
          } else if (byte === 0x3b || byte === 0x20 || byte === 0x09) {
            this.state = Chunk.Extension;
          } else {
            return -1;
          }
          break;
        }
        case Chunk.Extension:
          if (byte === 0x0d) this.state = Chunk.SizeLf;
          else if (byte === 0x0a || byte < 0x09 || (byte > 0x09 && byte < 0x20) || byte === 0x7f) return -1;
          else if (++this.lineLength > CHUNK_LINE_LIMIT) return -1;
          break;
        case Chunk.SizeLf:
          if (byte !== 0x0a) return -1;
          this.lineLength = 0;
          this.digits = 0;
          if (this.size === 0) {
            this.state = Chunk.TrailerStart;
          } else {
            this.state = Chunk.Data;
          }
          break;
        case Chunk.Data: {
          const step = Math.min(this.size, n - i);
          this.size -= step;
          i += step;
          if (this.size === 0) this.state = Chunk.DataCr;
          continue;
        }
        case Chunk.DataCr:
          if (byte !== 0x0d) return -1;
          this.state = Chunk.DataLf;
          break;
        case Chunk.DataLf:
          if (byte !== 0x0a) return -1;
          this.state = Chunk.Size;
          break;
        case Chunk.TrailerStart:
          if (byte === 0x0d) this.state = Chunk.EndLf;
          else if (byte === 0x0a) return -1;
          else this.state = Chunk.TrailerLine;
          break;
        case Chunk.TrailerLine:
          if (byte === 0x0d) this.state = Chunk.TrailerLf;
          else if (byte === 0x0a) return -1;
          break;
        case Chunk.TrailerLf:
          if (byte !== 0x0a) return -1;
          this.state = Chunk.TrailerStart;
          break;
        case Chunk.EndLf:
          if (byte !== 0x0a) return -1;
          this.isDone = true;
          return i + 1 - from;
      }
      if (this.state >= Chunk.TrailerStart && ++this.trailerLength > TRAILER_LIMIT) return -1;
      i++;
    }
    return i - from;
  }
}

/** A body that is empty. */
export const NO_BODY: TBodyFrame = { isDone: true, take: () => 0 };

// Parsed Basic credentials by header value (clients send the same one on every connection).
const basicCache = new Map<string, { username: string; password: string } | null>();

/** Username and password of a `Basic` Proxy-Authorization value. */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  if (!header) return null;
  const cached = basicCache.get(header);
  if (cached !== undefined) return cached;
  let result: { username: string; password: string } | null = null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (match) {
    const text = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon > 0) result = { username: text.slice(0, colon), password: text.slice(colon + 1) };
  }
  if (basicCache.size >= 1024) basicCache.clear();
  basicCache.set(header, result);
  return result;
}
