import { type OtpChannel, otpChannelFromSettings } from '@aplt/mail';
import type { Config } from '../config';

export type { OtpChannel };

/** Staff's one-time sign-in code, over ACCESS_OTP_CHANNEL (e-mail, a messaging webhook or the log). */
export const otpChannelFromConfig = (config: Config, log: { warn(obj: object, msg: string): void }) =>
  otpChannelFromSettings({
    channel: config.ACCESS_OTP_CHANNEL,
    webhookUrl: config.ACCESS_OTP_WEBHOOK_URL,
    webhookVariable: 'ACCESS_OTP_WEBHOOK_URL',
    ttlSeconds: config.ACCESS_OTP_TTL_SECONDS,
    smtp: config,
    mail: {
      subject: (code) => `Your sign-in code: ${code}`,
      text: (code, minutes) =>
        `Your one-time sign-in code is ${code}.\nIt expires in ${minutes} minutes. If you did not try to sign in, ignore this message.`,
    },
    logLabel: 'one-time sign-in code',
    log,
  });
