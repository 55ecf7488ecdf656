export { createMailer, type Mail, type Mailer } from '@aplt/mail';
