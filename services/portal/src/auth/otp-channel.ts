import { createMailer } from '@aplt/mail';
import type { Config } from '../config';

/** Delivers the second-factor code; login fails clearly when the channel does. */
export interface OtpChannel {
  name: string;
  send(to: string, code: string): Promise<void>;
  close(): void;
}

/** E-mail over SMTP submission: STARTTLS on 587, never implicit TLS (spec 1, authentication 2). */
export function emailOtpChannel(config: Config): OtpChannel {
  const mailer = createMailer(config);
  const minutes = Math.round(config.PORTAL_OTP_TTL_SECONDS / 60);
  return {
    name: 'email',
    async send(to, code) {
      await mailer.send({
        to,
        subject: `Your portal verification code: ${code}`,
        text: `Your customer portal verification code is ${code}.\nIt expires in ${minutes} minutes. If you did not try to sign in, ignore this message.`,
      });
    },
    close: () => mailer.close(),
  };
}

/** Local demo only: writes the code to the service's standard output instead of sending it. */
export function logOtpChannel(
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): OtpChannel {
  return {
    name: 'log',
    async send(to, code) {
      write(
        JSON.stringify({ level: 40, service: 'portal', msg: `portal verification code for ${to}: ${code}` }),
      );
    },
    close: () => {},
  };
}

export function otpChannelFromConfig(config: Config): OtpChannel {
  return config.PORTAL_OTP_CHANNEL === 'log' ? logOtpChannel() : emailOtpChannel(config);
}
