import Link from 'next/link';
import { displayName, retrieveCustomer } from '@lib/data/customer';
import type { Lang } from '@lib/i18n';
import { at } from './texts';

/**
 * Header entry to the customer account (owned by the account module): "Sign in" for a visitor,
 * the customer's name once signed in. A failing profile call shows the sign-in link, not an error.
 */
export async function AccountMenu({ lang }: { lang: Lang }) {
  const customer = await retrieveCustomer().catch(() => null);
  const tx = at(lang);
  if (!customer)
    return (
      <Link href={`/${lang}/account/login`} className="account-link" data-testid="account-menu">
        {tx.signIn}
      </Link>
    );
  return (
    <Link
      href={`/${lang}/account`}
      className="account-link signed-in"
      data-testid="account-menu"
      title={tx.myAccount}
    >
      <span className="account-dot" aria-hidden>
        {displayName(customer).charAt(0).toUpperCase()}
      </span>
      <span className="account-name">{displayName(customer)}</span>
    </Link>
  );
}
