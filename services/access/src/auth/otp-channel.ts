import { createMailer } from '@aplt/mail';
import type { Config } from '../config';

/** Delivers a one-time code; the login fails clearly when the channel does. */
export interface OtpChannel {
  name: 'email' | 'webhook' | 'log';
  send(to: string, code: string): Promise<void>;
}

export function emailChannel(config: Config): OtpChannel {
  const mailer = createMailer(config);
  return {
    name: 'email',
    async send(to, code) {
      await mailer.send({
        to,
        subject: `Your sign-in code: ${code}`,
        text: `Your one-time sign-in code is ${code}.\nIt expires in ${Math.round(config.ACCESS_OTP_TTL_SECONDS / 60)} minutes. If you did not try to sign in, ignore this message.`,
      });
    },
  };
}

/** Posts {email, code, expires_in} to a messaging gateway (chat bot, SMS bridge). */
export function webhookChannel(url: string, ttlSeconds: number): OtpChannel {
  return {
    name: 'webhook',
    async send(to, code) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: to, code, expires_in: ttlSeconds }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`OTP webhook answered ${res.status}`);
    },
  };
}

/** Development only (a fleet without a mail server): the code goes to the service log. */
export function logChannel(log: { warn(obj: object, msg: string): void }): OtpChannel {
  return {
    name: 'log',
    send: async (to, code) =>
      log.warn({ to, code }, 'one-time sign-in code (ACCESS_OTP_CHANNEL=log, development only)'),
  };
}

export function otpChannelFromConfig(
  config: Config,
  log: { warn(obj: object, msg: string): void },
): OtpChannel {
  if (config.ACCESS_OTP_CHANNEL === 'log') return logChannel(log);
  if (config.ACCESS_OTP_CHANNEL === 'webhook') {
    if (!config.ACCESS_OTP_WEBHOOK_URL)
      throw new Error('ACCESS_OTP_WEBHOOK_URL is required for the webhook channel');
    return webhookChannel(config.ACCESS_OTP_WEBHOOK_URL, config.ACCESS_OTP_TTL_SECONDS);
  }
  return emailChannel(config);
}
