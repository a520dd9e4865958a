import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers';
import { createMailer } from './mailer';

// A real SMTP sink on loopback: what the mailer sends is what a mail server receives.
const received: { from: string; to: string[]; raw: string }[] = [];
let sink: SMTPServer;
let smtpUrl: string;

beforeAll(async () => {
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => sink.close(() => resolve()));
});

describe('mailer', () => {
  it('delivers over SMTP with the sender, recipient and subject', async () => {
    const mailer = createMailer({ smtpUrl, from: 'ProxyHub <no-reply@proxyhub.test>', outboxDir: '/nonexistent' });
    await mailer.send({ to: 'ann@example.com', subject: 'Hello Ann', text: 'body text 123' });
    const mail = received.at(-1)!;
    expect(mail.from).toBe('no-reply@proxyhub.test');
    expect(mail.to).toEqual(['ann@example.com']);
    expect(mail.raw).toContain('Subject: Hello Ann');
    expect(mail.raw).toContain('body text 123');
  });

  it('writes RFC 822 files to the outbox when no SMTP is configured', async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const mailer = createMailer({ from: 'ProxyHub <no-reply@proxyhub.test>', outboxDir });
    await mailer.send({ to: 'bob@example.com', subject: 'Hello Bob', text: 'outbox body' });
    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    const text = readFileSync(path.join(outboxDir, files[0]), 'utf8');
    expect(text).toMatch(/^From: /m);
    expect(text).toContain('To: bob@example.com');
    expect(text).toContain('outbox body');
  });

  it('sends the registration code through SMTP and the code registers the account', async () => {
    const t = await createTestApp({
      mailer: createMailer({ smtpUrl, from: 'ProxyHub <no-reply@proxyhub.test>', outboxDir: '/nonexistent' }),
    });
    try {
      const email = `smtp.${Date.now()}@example.com`;
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/user/code',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ email, type: 'register' }),
      });
      expect(sent.json().code).toBe(0);
      const mail = [...received].reverse().find((m) => m.to.includes(email));
      const code = /\b(\d{6})\b/.exec(
        mail!.raw
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n'),
      )?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/user/register',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({
          username: `smtp${Date.now() % 100000}`,
          email,
          password: 'password 123',
          confirm_password: 'password 123',
          code: code!,
        }),
      });
      expect(registered.json().code).toBe(0);
    } finally {
      await t.close();
    }
  });
});
