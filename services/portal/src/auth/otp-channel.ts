import { type OtpChannel, otpChannelFromSettings } from '@aplt/mail';
import type { Config } from '../config';

export type { OtpChannel };

/**
 * The portal's second-factor code over PORTAL_OTP_CHANNEL: e-mail (SMTP submission with
 * STARTTLS, spec 1, authentication 2), a messaging webhook, or the log (local demo only).
 */
export const otpChannelFromConfig = (config: Config, log: { warn(obj: object, msg: string): void }) =>
  otpChannelFromSettings({
    channel: config.PORTAL_OTP_CHANNEL,
    webhookUrl: config.PORTAL_OTP_WEBHOOK_URL,
    webhookVariable: 'PORTAL_OTP_WEBHOOK_URL',
    ttlSeconds: config.PORTAL_OTP_TTL_SECONDS,
    smtp: config,
    mail: {
      subject: (code) => `Your portal verification code: ${code}`,
      text: (code, minutes) =>
        `Your customer portal verification code is ${code}.\nIt expires in ${minutes} minutes. If you did not try to sign in, ignore this message.`,
    },
    logLabel: 'portal verification code',
    log,
  });
