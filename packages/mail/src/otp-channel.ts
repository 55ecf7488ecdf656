import { createMailer, type SmtpSettings } from './mailer';

/**
 * Where a one-time sign-in code goes (access's staff login and the customer portal): the login
 * fails clearly when the channel does.
 */
export interface OtpChannel {
  name: 'email' | 'webhook' | 'log';
  send(to: string, code: string): Promise<void>;
  close(): void;
}

export type OtpChannelName = OtpChannel['name'];

/** The words of the code's e-mail, which differ by audience. */
export interface OtpMail {
  subject(code: string): string;
  text(code: string, minutes: number): string;
}

/** E-mail over SMTP submission: STARTTLS on 587, never implicit TLS (createMailer). */
export function emailOtpChannel(smtp: SmtpSettings, ttlSeconds: number, mail: OtpMail): OtpChannel {
  const mailer = createMailer(smtp);
  const minutes = Math.round(ttlSeconds / 60);
  return {
    name: 'email',
    async send(to, code) {
      await mailer.send({ to, subject: mail.subject(code), text: mail.text(code, minutes) });
    },
    close: () => mailer.close(),
  };
}

/** Posts {email, code, expires_in} to a messaging gateway (chat bot, SMS bridge). */
export function webhookOtpChannel(url: string, ttlSeconds: number): OtpChannel {
  return {
    name: 'webhook',
    async send(to, code) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: to, code, expires_in: ttlSeconds }),
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`OTP webhook answered ${res.status}`);
    },
    close: () => {},
  };
}

/** Development only (a fleet without a mail server): the code goes to the service's log. */
export function logOtpChannel(log: { warn(obj: object, msg: string): void }, what: string): OtpChannel {
  return {
    name: 'log',
    send: async (to, code) => log.warn({ to, code }, `${what} for ${to}: ${code} (development only)`),
    close: () => {},
  };
}

/**
 * The channel a service's settings name. `webhookVariable` names the URL's variable in the error
 * when the webhook channel is chosen without one.
 */
export function otpChannelFromSettings(s: {
  channel: OtpChannelName;
  webhookUrl: string | undefined;
  webhookVariable: string;
  ttlSeconds: number;
  smtp: SmtpSettings;
  mail: OtpMail;
  /** What the log channel calls the code ('portal verification code'). */
  logLabel: string;
  log: { warn(obj: object, msg: string): void };
}): OtpChannel {
  if (s.channel === 'log') return logOtpChannel(s.log, s.logLabel);
  if (s.channel === 'webhook') {
    if (!s.webhookUrl) throw new Error(`${s.webhookVariable} is required for the webhook channel`);
    return webhookOtpChannel(s.webhookUrl, s.ttlSeconds);
  }
  return emailOtpChannel(s.smtp, s.ttlSeconds, s.mail);
}
