// E-mails of the server's outbox (RFC 822 files written by nodemailer) read as
// a person reads them: the plain-text part, its transfer encoding undone.

type THeaders = Record<string, string>;

// Header lines, folded lines joined, names lower-cased.
function headersOf(head: string): THeaders {
  const headers: THeaders = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return body
        .replace(/=\r?\n/g, '')
        .replace(/(?:=[0-9A-Fa-f]{2})+/g, (hex) => Buffer.from(hex.replace(/=/g, ''), 'hex').toString('utf8'));
    default:
      return body;
  }
}

/**
 * The plain text of an e-mail file (its text/plain parts, decoded from
 * base64 or quoted-printable), so a test reads links and sentences whole
 * wherever the encoder broke the lines.
 */
export function mailText(raw: string): string {
  const split = /\r?\n\r?\n/.exec(raw);
  const headers = headersOf(split ? raw.slice(0, split.index) : raw);
  const body = split ? raw.slice(split.index + split[0].length) : '';
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => mailText(part.replace(/^\r?\n/, '')))
      .filter(Boolean)
      .join('\n');
  }
  return /^text\/plain/i.test(type) ? decodeBody(body, headers['content-transfer-encoding']) : '';
}

/** The links in an e-mail's text whose path starts with `pathPrefix` (e.g. "/login/link"). */
export function mailLinks(raw: string, pathPrefix: string): string[] {
  return [...mailText(raw).matchAll(/https?:\/\/[^\s<>"]+/g)]
    .map((m) => m[0])
    .filter((href) => new URL(href).pathname.startsWith(pathPrefix));
}
