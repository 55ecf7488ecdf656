import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * SMTP submission as the spec demands: port 587, plain connect then STARTTLS (never implicit
 * TLS), refusing to send if the server does not offer it, authenticated with MAIL_PASSWORD.
 */
export function createMailer(config: Config): Mailer {
  const transport: Transporter = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: false,
    requireTLS: config.SMTP_REQUIRE_TLS,
    auth: config.MAIL_PASSWORD
      ? { user: config.SMTP_USER ?? config.MAIL_FROM_ADDRESS, pass: config.MAIL_PASSWORD }
      : undefined,
    tls: { rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
  });
  const from = { name: config.MAIL_FROM_NAME, address: config.MAIL_FROM_ADDRESS };
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
