import { describe, expect, it } from 'vitest';
import {
  ChunkedBody,
  LengthBody,
  parseAbsoluteTarget,
  parseBasic,
  parseRequestHead,
  parseResponseHead,
} from './http-head';

// The framing rules alone, without sockets: what the forwarder reads from the bytes.

describe('request heads', () => {
  it('reads the request line, keeps the end-to-end headers and takes out the proxy ones', () => {
    const head = parseRequestHead(
      'POST http://example.com/a?b HTTP/1.1\r\nHost: example.com\r\nProxy-Authorization: Basic eDp5\r\nProxy-Connection: keep-alive\r\nX-A: 1\r\nContent-Length: 3',
    );
    expect(head).toMatchObject({
      method: 'POST',
      target: 'http://example.com/a?b',
      minor: 1,
      lines: ['Host: example.com', 'X-A: 1', 'Content-Length: 3'],
      contentLength: 3,
      isChunked: false,
      proxyAuthorization: 'Basic eDp5',
      hasHost: true,
      isKeepAlive: true,
    });
  });

  it('keeps HTTP/1.1 unless told to close, and HTTP/1.0 only when told to keep alive', () => {
    const keepAlive = (text: string) => (parseRequestHead(text) as { isKeepAlive: boolean }).isKeepAlive;
    expect(keepAlive('GET http://x/ HTTP/1.1')).toBe(true);
    expect(keepAlive('GET http://x/ HTTP/1.1\r\nConnection: close')).toBe(false);
    expect(keepAlive('GET http://x/ HTTP/1.1\r\nConnection: Upgrade, Close')).toBe(false);
    expect(keepAlive('GET http://x/ HTTP/1.0')).toBe(false);
    expect(keepAlive('GET http://x/ HTTP/1.0\r\nConnection: keep-alive')).toBe(true);
  });

  it('drops the headers that Connection names', () => {
    const head = parseRequestHead('GET http://x/ HTTP/1.1\r\nConnection: X-Secret, close\r\nX-Secret: s\r\nX-Kept: k');
    expect(head).toMatchObject({ lines: ['X-Kept: k'], isKeepAlive: false });
  });

  it('takes chunked as the last coding, and refuses every ambiguous framing', () => {
    expect(parseRequestHead('POST http://x/ HTTP/1.1\r\nTransfer-Encoding: gzip, chunked')).toMatchObject({
      isChunked: true,
      contentLength: null,
    });
    for (const framing of [
      'Transfer-Encoding: chunked\r\nContent-Length: 1',
      'Content-Length: 1\r\nContent-Length: 1',
      'Content-Length: 1, 1',
      'Transfer-Encoding: chunked, gzip',
      'Transfer-Encoding: identity',
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked',
    ]) {
      expect(parseRequestHead(`POST http://x/ HTTP/1.1\r\n${framing}`), framing).toMatch(/ambiguous|malformed/);
    }
    expect(parseRequestHead('POST http://x/ HTTP/1.0\r\nTransfer-Encoding: chunked')).toBe('ambiguous');
  });

  it('refuses malformed lines', () => {
    for (const text of [
      'GET http://x/ HTTP/1.1 ',
      'GET http://x/',
      'get\thttp://x/ HTTP/1.1',
      'GET http://x/ HTTP/1.1\r\n: empty-name',
      'GET http://x/ HTTP/1.1\r\nX\u00ff: 1',
      'GET http://x/ HTTP/1.1\r\nX-A: \u0000',
      'GET http://x/ HTTP/1.1\r\nX-A: 1\r\n\tfolded',
      'GET http://x/ HTTP/1.1\r\nContent-Length: -1',
      'GET http://x/ HTTP/1.1\r\nContent-Length: 1e3',
    ]) {
      expect(parseRequestHead(text), JSON.stringify(text)).toBe('malformed');
    }
  });
});

describe('response heads', () => {
  it('passes a head through unchanged when it has nothing hop-by-hop', () => {
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain')).toMatchObject({
      status: 200,
      lines: null,
      contentLength: 5,
      isCloseDelimited: false,
      isClosing: false,
    });
  });

  it('takes out hop-by-hop headers, and knows when the origin closes', () => {
    expect(
      parseResponseHead('HTTP/1.1 200 OK\r\nConnection: close\r\nKeep-Alive: timeout=5\r\nContent-Length: 0'),
    ).toMatchObject({
      lines: ['Content-Length: 0'],
      isClosing: true,
    });
    expect(parseResponseHead('HTTP/1.0 200 OK\r\nContent-Length: 0')).toMatchObject({ isClosing: true });
    expect(parseResponseHead('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0')).toMatchObject({
      isClosing: false,
    });
    expect(parseResponseHead('HTTP/1.1 204')).toMatchObject({ status: 204, statusLine: 'HTTP/1.1 204' });
  });

  it('frames by Transfer-Encoding over Content-Length (which is not passed on), or until the close', () => {
    expect(
      parseResponseHead('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 9\r\nX: 1'),
    ).toMatchObject({
      isChunked: true,
      contentLength: null,
      lines: ['Transfer-Encoding: chunked', 'X: 1'],
    });
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip')).toMatchObject({
      isChunked: false,
      isCloseDelimited: true,
    });
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nContent-Type: text/plain')).toMatchObject({ isCloseDelimited: true });
  });

  it('takes repeated equal Content-Length values as one, and refuses different ones or a bad status line', () => {
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 4')).toMatchObject({
      contentLength: 4,
    });
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5')).toBeNull();
    expect(parseResponseHead('HTTP/1.1 2000 OK')).toBeNull();
    expect(parseResponseHead('HTTP/2 200 OK')).toBeNull();
    expect(parseResponseHead('ICY 200 OK')).toBeNull();
  });
});

describe('absolute targets', () => {
  it('reads host, port and the origin-form path', () => {
    expect(parseAbsoluteTarget('http://Example.com/a/b?c=d#frag')).toEqual({
      host: 'Example.com',
      port: 80,
      authority: 'Example.com',
      path: '/a/b?c=d',
    });
    expect(parseAbsoluteTarget('HTTP://example.com:8080')).toEqual({
      host: 'example.com',
      port: 8080,
      authority: 'example.com:8080',
      path: '/',
    });
    expect(parseAbsoluteTarget('http://example.com?q')).toMatchObject({ path: '/?q' });
    expect(parseAbsoluteTarget('http://[2001:db8::1]:81/x')).toMatchObject({
      host: '2001:db8::1',
      port: 81,
      path: '/x',
    });
  });

  it('refuses other schemes, user info, bad ports and origin-form targets', () => {
    for (const target of [
      'https://example.com/',
      '/path',
      'http://u:p@example.com/',
      'http://example.com:0/',
      'http://example.com:65536/',
      'http://exa mple.com/',
      'http:///x',
    ]) {
      expect(parseAbsoluteTarget(target), target).toBeNull();
    }
  });
});

// Feeds a body to a framer in pieces of `size` bytes; answers the bytes it took and whether it ended (-1: broken).
function feed(body: Buffer, frame: { take(buf: Buffer, from: number): number; isDone: boolean }, size: number): number {
  let taken = 0;
  for (let at = 0; at < body.length && !frame.isDone; at += size) {
    const piece = body.subarray(at, at + size);
    const n = frame.take(piece, 0);
    if (n < 0) return -1;
    taken += n;
  }
  return frame.isDone ? taken : -2;
}

describe('chunked bodies', () => {
  const body = Buffer.from(
    '4;name=value\r\nwiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: 1\r\nX-Other: 2\r\n\r\n',
  );

  it('ends at the same byte however the bytes are split, and leaves what follows', () => {
    const withNext = Buffer.concat([body, Buffer.from('GET /next HTTP/1.1\r\n\r\n')]);
    for (let size = 1; size <= withNext.length; size++)
      expect(feed(withNext, new ChunkedBody(), size), `pieces of ${size}`).toBe(body.length);
  });

  it('ends without a trailer, and with upper-case hex sizes', () => {
    const plain = Buffer.from('A\r\n0123456789\r\n0\r\n\r\n');
    expect(feed(plain, new ChunkedBody(), 3)).toBe(plain.length);
  });

  it('breaks on bad sizes, missing CRLFs and bare LFs, whatever the split', () => {
    for (const bad of [
      'g\r\n',
      '\r\n',
      ' 1\r\nx\r\n',
      '-1\r\n',
      '1000000000000\r\n',
      '2\r\nabc\r\n',
      '2\r\nab\n',
      '1\nx\r\n',
      '0\r\nX: 1\n\r\n',
      '0\r\n\n',
    ]) {
      for (const size of [1, 2, 100])
        expect(feed(Buffer.from(bad), new ChunkedBody(), size), `${JSON.stringify(bad)} in pieces of ${size}`).toBe(-1);
    }
  });
});

describe('other framers and credentials', () => {
  it('takes exactly Content-Length bytes', () => {
    const frame = new LengthBody(5);
    expect(frame.take(Buffer.from('abc'), 1)).toBe(2);
    expect(frame.isDone).toBe(false);
    expect(frame.take(Buffer.from('defgh'), 0)).toBe(3);
    expect(frame.isDone).toBe(true);
    expect(new LengthBody(0).isDone).toBe(true);
  });

  it('reads Basic credentials, with a colon in the password, and refuses others', () => {
    expect(parseBasic(`Basic ${Buffer.from('user-country-us:p:w@d').toString('base64')}`)).toEqual({
      username: 'user-country-us',
      password: 'p:w@d',
    });
    expect(parseBasic(`basic   ${Buffer.from('u:').toString('base64')}`)).toEqual({ username: 'u', password: '' });
    expect(parseBasic(`Basic ${Buffer.from(':p').toString('base64')}`)).toBeNull();
    expect(parseBasic('Bearer abc')).toBeNull();
    expect(parseBasic(undefined)).toBeNull();
  });
});
