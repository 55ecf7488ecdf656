export { createMailer, type Mail, type Mailer, type SmtpSettings } from './mailer';
