import type { Metadata } from 'next';
import Link from 'next/link';
import { resendVerificationAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'E-mail' };

/** After sign-up: the e-mail with the verification link is on its way; it can be sent again. */
export default async function CheckEmailPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ email?: string }>;
}) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const email = ((await searchParams).email ?? '').slice(0, 254);
  return (
    <>
      <h1 data-testid="check-email">{tx.checkMailTitle}</h1>
      <p>{tx.checkMail(email || '…')}</p>
      <ActionForm
        action={resendVerificationAction}
        lang={lang}
        submitLabel={tx.resendVerification}
        className="account-form secondary"
      >
        <input type="hidden" name="email" value={email} />
      </ActionForm>
      <p>
        <Link href={`/${lang}/account/login`}>{tx.signIn}</Link>
      </p>
    </>
  );
}
