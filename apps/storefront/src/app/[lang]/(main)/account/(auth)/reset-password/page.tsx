import type { Metadata } from 'next';
import Link from 'next/link';
import { resetPasswordAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

// The token is in this page's URL: no Referer carries it to the next page or another site.
export const metadata: Metadata = { title: 'Reset password', referrer: 'no-referrer' };

const MAX_TOKEN = 4096;

/**
 * Whether a JWT's `exp` has passed. Only to say so before the visitor types a new password: the
 * signature, the token's use and everything else are the auth service's to check on submit.
 */
function expired(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now();
  } catch {
    return false;
  }
}

/**
 * Where the reset e-mail's link lands (`<store_base_url>/reset-password?token=..&email=..`, which
 * forwards here). The token goes into the form as a hidden field and is spent only when the new
 * password is posted; a link that is invalid, expired or used offers a new one.
 */
export default async function ResetPasswordPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const sp = await searchParams;
  const token = typeof sp.token === 'string' ? sp.token : '';
  const email = typeof sp.email === 'string' && sp.email.length <= 254 ? sp.email : '';
  const usable = !!token && token.length <= MAX_TOKEN && !sp.invalid && !expired(token);
  return (
    <>
      <h1>{tx.resetTitle}</h1>
      {usable ? (
        <>
          <p className="muted">{email ? tx.resetIntro(email) : tx.resetIntroNoEmail}</p>
          <ActionForm
            action={resetPasswordAction}
            lang={lang}
            submitLabel={tx.savePassword}
            testId="reset-form"
          >
            <input type="hidden" name="token" value={token} />
            {/* For password managers: which account the new password belongs to. */}
            {email && (
              <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
            )}
            <label className="field">
              <span>{tx.newPassword}</span>
              <input
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={10}
                maxLength={128}
                aria-describedby="password-hint"
              />
              <small id="password-hint" className="muted">
                {tx.passwordHint}
              </small>
            </label>
            <label className="field">
              <span>{tx.repeatPassword}</span>
              <input
                name="password_repeat"
                type="password"
                autoComplete="new-password"
                required
                minLength={10}
                maxLength={128}
              />
            </label>
          </ActionForm>
        </>
      ) : (
        <>
          <p className="error" role="alert" data-testid="reset-invalid">
            {tx.resetLinkInvalid}
          </p>
          <p>
            <Link href={`/${lang}/account/forgot-password`} className="button" data-testid="request-new-link">
              {tx.requestNewLink}
            </Link>
          </p>
        </>
      )}
      <p className="muted">
        <Link href={`/${lang}/account/login`}>{tx.backToSignIn}</Link>
      </p>
    </>
  );
}
