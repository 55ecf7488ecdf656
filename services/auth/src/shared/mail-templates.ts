import type { Mail } from './mailer';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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
<tr><td style="background:#1f2a44;color:#fff;padding:16px 24px;font-size:18px;font-weight:bold">${escape(brand)}</td></tr>
<tr><td style="padding:24px;color:#1f2a44"><h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}
${action ? `<p><a href="${escape(action.url)}" style="display:inline-block;background:#2f6fed;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${escape(action.label)}</a></p><p style="font-size:12px;color:#667">${escape(action.url)}</p>` : ''}
</td></tr></table></td></tr></table></body></html>`;
  const text = [title, '', ...paragraphs, ...(action ? ['', `${action.label}: ${action.url}`] : [])].join(
    '\n',
  );
  return { html, text };
}

export function resetPasswordMail(opts: { brand: string; to: string; url: string; minutes: number }): Mail {
  return {
    to: opts.to,
    subject: `${opts.brand}: reset your password`,
    ...branded(
      opts.brand,
      'Reset your password',
      [
        'Someone asked to reset the password of this account. If it was you, choose a new password with the link below.',
        `The link works once and expires in ${opts.minutes} minutes. If you did not ask for this, ignore this e-mail.`,
      ],
      { label: 'Choose a new password', url: opts.url },
    ),
  };
}

export function verifyEmailMail(opts: { brand: string; to: string; url: string }): Mail {
  return {
    to: opts.to,
    subject: `${opts.brand}: confirm your e-mail address`,
    ...branded(
      opts.brand,
      'Confirm your e-mail address',
      ['Welcome! Confirm your e-mail address to start using your account.'],
      { label: 'Confirm e-mail address', url: opts.url },
    ),
  };
}

export function otpMail(opts: { brand: string; to: string; code: string; minutes: number }): Mail {
  return {
    to: opts.to,
    subject: `${opts.brand}: your login code ${opts.code}`,
    ...branded(opts.brand, 'Your login code', [
      `Your login code is ${opts.code}.`,
      `It is valid for ${opts.minutes} minutes. Never share it with anyone.`,
    ]),
  };
}
