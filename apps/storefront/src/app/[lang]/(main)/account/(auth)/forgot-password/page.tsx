import type { Metadata } from 'next';
import Link from 'next/link';
import { forgotPasswordAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Forgot password' };

/**
 * Asks for the reset e-mail. The answer is the same confirmation for every address, known or not
 * (the auth service answers alike too), so the page cannot be used to find out who has an account.
 */
export default async function ForgotPasswordPage({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  return (
    <>
      <h1>{tx.forgotTitle}</h1>
      <p className="muted">{tx.forgotIntro}</p>
      <ActionForm
        action={forgotPasswordAction}
        lang={lang}
        submitLabel={tx.sendResetLink}
        testId="forgot-form"
        hideOnOk
      >
        <label className="field">
          <span>{tx.email}</span>
          <input name="email" type="email" autoComplete="email" required maxLength={254} />
        </label>
      </ActionForm>
      <p className="muted">
        <Link href={`/${lang}/account/login`}>{tx.backToSignIn}</Link>
      </p>
    </>
  );
}
