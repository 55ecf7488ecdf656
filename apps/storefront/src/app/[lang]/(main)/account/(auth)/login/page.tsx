import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { retrieveCustomer } from '@lib/data/customer';
import { loginAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { CurrentPasswordField } from '@modules/account/components/current-password-field';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Login' };

export default async function LoginPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const lang = await pageLang(params);
  const sp = await searchParams;
  if (await retrieveCustomer().catch(() => null)) redirect(`/${lang}/account`);
  const tx = at(lang);
  const notice = sp.password_reset
    ? tx.passwordChanged
    : sp.deleted
      ? tx.deleted
      : sp.signed_out
        ? tx.signedOut
        : sp.expired
          ? tx.sessionExpired
          : null;
  return (
    <>
      <h1>{tx.signIn}</h1>
      {notice && (
        <p className="notice" role="status" data-testid="login-notice">
          {notice}
        </p>
      )}
      <p className="muted">{tx.loginIntro}</p>
      <ActionForm action={loginAction} lang={lang} submitLabel={tx.signIn} testId="login-form">
        <label className="field">
          <span>{tx.email}</span>
          <input name="email" type="email" autoComplete="email" required maxLength={254} />
        </label>
        <CurrentPasswordField label={tx.password} />
        <label className="check">
          <input name="remember" type="checkbox" /> {tx.rememberMe}
        </label>
      </ActionForm>
      <p className="muted">
        <Link href={`/${lang}/account/forgot-password`} data-testid="forgot-password">
          {tx.forgotPassword}
        </Link>
      </p>
      <p className="muted">
        {tx.noAccount} <Link href={`/${lang}/account/register`}>{tx.register}</Link>
      </p>
    </>
  );
}
