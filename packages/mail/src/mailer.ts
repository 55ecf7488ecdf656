import type { Transporter } from 'nodemailer';

/** The parsed `smtpEnv` group of @aplt/config. */
export interface SmtpSettings {
  SMTP_HOST: string;
  SMTP_PORT: number;
  SMTP_USER?: string | undefined;
  MAIL_PASSWORD?: string | undefined;
  MAIL_FROM_NAME: string;
  MAIL_FROM_ADDRESS: string;
  SMTP_TLS_REJECT_UNAUTHORIZED: boolean;
  SMTP_REQUIRE_TLS: boolean;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The Message-ID header, `<...>`. A queued mail takes it from its job, so a job sent again after
   * a crash between the hand-over and its completion carries the same one, and mail systems that
   * deduplicate by Message-ID show it once. Unset: nodemailer makes a random one.
   */
  messageId?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * SMTP submission as the spec demands, the same for every service that sends mail: plain connect
 * on 587, then STARTTLS (never implicit TLS), refusing to send when the server does not offer it
 * (unless SMTP_REQUIRE_TLS is off for a local catch-all), authenticated with MAIL_PASSWORD as
 * SMTP_USER (default: the sender address), from the configured name and address.
 *
 * nodemailer (some 35 modules) loads with the first mail, not at start: most services send mail
 * rarely and their idle memory counts.
 */
export function createMailer(config: SmtpSettings): Mailer {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  const open = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import('nodemailer');
    const t = nodemailer.createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: false,
      requireTLS: config.SMTP_REQUIRE_TLS,
      auth: config.MAIL_PASSWORD
        ? { user: config.SMTP_USER ?? config.MAIL_FROM_ADDRESS, pass: config.MAIL_PASSWORD }
        : undefined,
      tls: { rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
    });
    // A close() that came while the module loaded still closes what it opened.
    if (closed) t.close();
    return t;
  };
  const from = { name: config.MAIL_FROM_NAME, address: config.MAIL_FROM_ADDRESS };
  return {
    async send({ messageId, ...mail }) {
      transport ??= open();
      await (await transport).sendMail({ from, ...mail, ...(messageId ? { messageId } : {}) });
    },
    close: () => {
      closed = true;
      // A transport that never opened has nothing to close (its send already failed).
      void transport?.then((t) => t.close()).catch(() => {});
    },
  };
}
