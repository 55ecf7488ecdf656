import type { Metadata } from 'next';
import Link from 'next/link';
import { otpAction, resendOtpAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { pageLang } from '@modules/account/page-helpers';
import { pendingSignIn } from '@modules/account/session';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Code' };

/**
 * The second step of a 2FA sign-in: the e-mailed 6-digit code (or a new one), or the code of the
 * customer's authenticator app (nothing to resend), or a recovery code.
 */
export default async function OtpPage({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const pending = await pendingSignIn();
  if (!pending)
    return (
      <>
        <h1>{tx.otpTitle}</h1>
        <p className="error" role="alert">
          {tx.otpExpired}
        </p>
        <Link href={`/${lang}/account/login`}>{tx.signIn}</Link>
      </>
    );
  const byApp = pending.method === 'authenticator';
  return (
    <>
      <h1>{tx.otpTitle}</h1>
      <p data-testid="otp-intro">{byApp ? tx.otpIntroApp : tx.otpIntro(pending.email)}</p>
      <ActionForm action={otpAction} lang={lang} submitLabel={tx.confirm} testId="otp-form">
        <label className="field">
          <span>{byApp ? tx.appCodeLabel : tx.code}</span>
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            className="code-input"
          />
        </label>
      </ActionForm>
      {!byApp && (
        <ActionForm
          action={resendOtpAction}
          lang={lang}
          submitLabel={tx.resendCode}
          className="account-form secondary"
          testId="otp-resend"
        >
          {null}
        </ActionForm>
      )}
      <details className="recovery">
        <summary data-testid="use-recovery">{byApp ? tx.useRecoveryApp : tx.useRecovery}</summary>
        <ActionForm action={otpAction} lang={lang} submitLabel={tx.useRecoveryButton} testId="recovery-form">
          <label className="field">
            <span>{tx.recoveryCode}</span>
            <input
              name="recovery_code"
              autoComplete="off"
              required
              maxLength={64}
              placeholder="xxxxx-xxxxx"
            />
          </label>
        </ActionForm>
      </details>
    </>
  );
}
