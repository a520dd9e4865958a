import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createMailer, type TMail } from '../src/lib/mailer';
import type { TMemoryMailer } from './helpers';

// A real SMTP sink on loopback: every e-mail of the suite goes through SMTP to it.
export type TReceived = { to: string[]; raw: string };
export async function startSmtpSink(): Promise<{ url: string; received: TReceived[]; close(): Promise<void> }> {
  const received: TReceived[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  };
}

// Sends through SMTP and keeps a copy, so suites read codes and texts without decoding MIME.
export function smtpTeeMailer(smtpUrl: string): TMemoryMailer {
  const smtp = createMailer({ smtpUrl, from: 'ProxyHub <no-reply@proxyhub.test>', outboxDir: '/nonexistent' });
  const sent: TMail[] = [];
  return {
    describe: 'smtp tee',
    sent,
    async send(mail) {
      await smtp.send(mail);
      sent.push(mail);
    },
    last: (to) => [...sent].reverse().find((m) => !to || m.to === to),
  };
}
