export { createMailer, type Mail, type Mailer, type SmtpSettings } from './mailer';
export {
  emailOtpChannel,
  logOtpChannel,
  type OtpChannel,
  type OtpChannelName,
  otpChannelFromSettings,
  type OtpMail,
  webhookOtpChannel,
} from './otp-channel';
