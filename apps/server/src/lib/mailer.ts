import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** An e-mail to send. */
export type TMail = { to: string; subject: string; text: string; html?: string };

/** Sends e-mail over SMTP_URL, or writes RFC 822 files to DATA_DIR/outbox when no SMTP is set. */
export type TMailer = { send(mail: TMail): Promise<void>; describe: string };

/** Builds the mailer from the configuration. */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log?: { info(obj: object, msg: string): void };
}): TMailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      describe: `SMTP ${new URL(options.smtpUrl).host}`,
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `outbox ${options.outboxDir}`,
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      await mkdir(options.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(
        options.outboxDir,
        `${Date.now()}-${safeTo}-${Math.random().toString(36).slice(2, 8)}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      options.log?.info({ to: mail.to, file }, `e-mail written to outbox: ${mail.subject}`);
    },
  };
}
