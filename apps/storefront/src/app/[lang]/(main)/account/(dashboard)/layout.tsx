import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { displayName, retrieveCustomer } from '@lib/data/customer';
import { tenantFeatures } from '@lib/data/features';
import { signOutAction } from '@modules/account/actions';
import { AccountNav } from '@modules/account/components/account-nav';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

/**
 * The signed-in account: without a session the visitor signs in first. The menu lists only the
 * sections of features the tenant has (their pages answer 404 otherwise).
 */
export default async function DashboardLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ lang: string }>;
}) {
  const lang = await pageLang(params);
  const [customer, features] = await Promise.all([retrieveCustomer(), tenantFeatures()]);
  if (!customer) redirect(`/${lang}/account/login`);
  const tx = at(lang);
  const base = `/${lang}/account`;
  const items = [
    { href: base, label: tx.overview },
    ...(features.hasFeature('quotations') ? [{ href: `${base}/quotations`, label: tx.quotations }] : []),
    ...(features.hasFeature('orders') ? [{ href: `${base}/orders`, label: tx.orders }] : []),
    ...(features.hasFeature('invoices')
      ? [
          { href: `${base}/invoices`, label: tx.invoices },
          { href: `${base}/returns`, label: tx.returns },
        ]
      : []),
    { href: `${base}/profile`, label: tx.profile },
    { href: `${base}/security`, label: tx.security },
  ];
  return (
    <div className="account" data-testid="account">
      <div className="account-head">
        <div className="account-who">
          {customer.avatar_url ? (
            // The avatar comes through this shop (the API needs the session), never from the API host.
            <img
              src={`${base}/profile/avatar?v=${encodeURIComponent(customer.updated_at)}`}
              alt=""
              className="avatar"
            />
          ) : (
            <span className="avatar placeholder-avatar" aria-hidden>
              {displayName(customer).charAt(0).toUpperCase()}
            </span>
          )}
          <div>
            <strong data-testid="account-name">{displayName(customer)}</strong>
            <div className="muted small">
              {customer.company_name ? `${customer.company_name} · ` : ''}
              {customer.email}
            </div>
          </div>
        </div>
        <form action={signOutAction}>
          <input type="hidden" name="lang" value={lang} />
          <button type="submit" className="secondary-button" data-testid="sign-out">
            {tx.signOut}
          </button>
        </form>
      </div>
      <AccountNav items={items} label={tx.myAccount} />
      <div className="account-content">{children}</div>
    </div>
  );
}
