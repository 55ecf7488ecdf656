import type { Metadata } from 'next';
import Link from 'next/link';
import { verifyEmail } from '@lib/data/customer';
import { ApiError } from '@lib/data/store-api';
import { resendVerificationAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { accountError } from '@modules/account/errors';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Verify' };

/**
 * Where the verification e-mail's link lands (the auth service links to `<store_base_url>/verify-email`,
 * which forwards here). The token is used once, on this page's render.
 */
export default async function VerifyPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ token?: string }>;
}) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const token = (await searchParams).token;
  let verified: string | undefined;
  let error: string | undefined;
  if (typeof token !== 'string' || !token || token.length > 200) error = tx.verifyMissing;
  else {
    try {
      verified = (await verifyEmail(token)).email;
    } catch (err) {
      error = err instanceof ApiError && err.status === 400 ? tx.verifyFailed : accountError(lang, err);
    }
  }
  return (
    <>
      <h1>{tx.verifyTitle}</h1>
      {verified ? (
        <>
          <p className="notice" role="status" data-testid="verified">
            {tx.verified(verified)}
          </p>
          <p>
            <Link href={`/${lang}/account/login`} className="button">
              {tx.signIn}
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="error" role="alert" data-testid="verify-failed">
            {error}
          </p>
          <ActionForm
            action={resendVerificationAction}
            lang={lang}
            submitLabel={tx.resendVerification}
            className="account-form secondary"
          >
            <label className="field">
              <span>{tx.email}</span>
              <input name="email" type="email" required maxLength={254} />
            </label>
          </ActionForm>
        </>
      )}
    </>
  );
}
