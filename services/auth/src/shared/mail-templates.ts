import type { Mail } from './mailer';
import { escapeHtml } from '@aplt/http';

/** The fleet's branded frame: one look for every account e-mail. */
function branded(
  brand: string,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
) {
  const html = `<!doctype html><html><body style="margin:0;background:#f4f5f7;font-family:Arial,sans-serif">
<table width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:8px">
<tr><td style="background:#1f2a44;color:#fff;padding:16px 24px;font-size:18px;font-weight:bold">${escapeHtml(brand)}</td></tr>
<tr><td style="padding:24px;color:#1f2a44"><h1 style="font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${action ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#2f6fed;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#667">${escapeHtml(action.url)}</p>` : ''}
</td></tr></table></td></tr></table></body></html>`;
  const text = [title, '', ...paragraphs, ...(action ? ['', `${action.label}: ${action.url}`] : [])].join(
    '\n',
  );
  return { html, text };
}

/** The languages of account e-mails (the storefront's: nl, en, de). */
export const MAIL_LANGUAGES = ['nl', 'en', 'de'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
export const isMailLanguage = (v: unknown): v is MailLanguage =>
  typeof v === 'string' && (MAIL_LANGUAGES as readonly string[]).includes(v);

/** Every sentence of the account e-mails, per language (staff's e-mails use 'en'). */
const TEXTS = {
  en: {
    reset: {
      subject: (brand: string) => `${brand}: reset your password`,
      title: 'Reset your password',
      body: (minutes: number) => [
        'Someone asked to reset the password of this account. If it was you, choose a new password with the link below.',
        `The link works once and expires in ${minutes} minutes. If you did not ask for this, ignore this e-mail.`,
      ],
      action: 'Choose a new password',
    },
    verify: {
      subject: (brand: string) => `${brand}: confirm your e-mail address`,
      title: 'Confirm your e-mail address',
      body: ['Welcome! Confirm your e-mail address to start using your account.'],
      action: 'Confirm e-mail address',
    },
    otp: {
      subject: (brand: string, code: string) => `${brand}: your login code ${code}`,
      title: 'Your login code',
      body: (code: string, minutes: number) => [
        `Your login code is ${code}.`,
        `It is valid for ${minutes} minutes. Never share it with anyone.`,
      ],
    },
  },
  nl: {
    reset: {
      subject: (brand: string) => `${brand}: stel een nieuw wachtwoord in`,
      title: 'Stel een nieuw wachtwoord in',
      body: (minutes: number) => [
        'Iemand heeft gevraagd het wachtwoord van dit account opnieuw in te stellen. Was u dat, kies dan met de link hieronder een nieuw wachtwoord.',
        `De link werkt één keer en verloopt over ${minutes} minuten. Heeft u dit niet gevraagd, negeer dan deze e-mail.`,
      ],
      action: 'Kies een nieuw wachtwoord',
    },
    verify: {
      subject: (brand: string) => `${brand}: bevestig uw e-mailadres`,
      title: 'Bevestig uw e-mailadres',
      body: ['Welkom! Bevestig uw e-mailadres om uw account te gebruiken.'],
      action: 'E-mailadres bevestigen',
    },
    otp: {
      subject: (brand: string, code: string) => `${brand}: uw inlogcode ${code}`,
      title: 'Uw inlogcode',
      body: (code: string, minutes: number) => [
        `Uw inlogcode is ${code}.`,
        `Hij is ${minutes} minuten geldig. Deel hem nooit met iemand.`,
      ],
    },
  },
  de: {
    reset: {
      subject: (brand: string) => `${brand}: Passwort zurücksetzen`,
      title: 'Passwort zurücksetzen',
      body: (minutes: number) => [
        'Jemand hat darum gebeten, das Passwort dieses Kontos zurückzusetzen. Wenn Sie das waren, wählen Sie über den Link unten ein neues Passwort.',
        `Der Link funktioniert einmal und läuft in ${minutes} Minuten ab. Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.`,
      ],
      action: 'Neues Passwort wählen',
    },
    verify: {
      subject: (brand: string) => `${brand}: Bestätigen Sie Ihre E-Mail-Adresse`,
      title: 'Bestätigen Sie Ihre E-Mail-Adresse',
      body: ['Willkommen! Bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto zu nutzen.'],
      action: 'E-Mail-Adresse bestätigen',
    },
    otp: {
      subject: (brand: string, code: string) => `${brand}: Ihr Anmeldecode ${code}`,
      title: 'Ihr Anmeldecode',
      body: (code: string, minutes: number) => [
        `Ihr Anmeldecode lautet ${code}.`,
        `Er ist ${minutes} Minuten gültig. Geben Sie ihn niemals weiter.`,
      ],
    },
  },
} as const;

export function resetPasswordMail(opts: {
  brand: string;
  to: string;
  url: string;
  minutes: number;
  lang: MailLanguage;
}): Mail {
  const t = TEXTS[opts.lang].reset;
  return {
    to: opts.to,
    subject: t.subject(opts.brand),
    ...branded(opts.brand, t.title, [...t.body(opts.minutes)], { label: t.action, url: opts.url }),
  };
}

export function verifyEmailMail(opts: { brand: string; to: string; url: string; lang: MailLanguage }): Mail {
  const t = TEXTS[opts.lang].verify;
  return {
    to: opts.to,
    subject: t.subject(opts.brand),
    ...branded(opts.brand, t.title, [...t.body], { label: t.action, url: opts.url }),
  };
}

export function otpMail(opts: {
  brand: string;
  to: string;
  code: string;
  minutes: number;
  lang: MailLanguage;
}): Mail {
  const t = TEXTS[opts.lang].otp;
  return {
    to: opts.to,
    subject: t.subject(opts.brand, opts.code),
    ...branded(opts.brand, t.title, [...t.body(opts.code, opts.minutes)]),
  };
}
