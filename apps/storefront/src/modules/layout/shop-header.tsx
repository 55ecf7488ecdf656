import Link from 'next/link';
import { Suspense } from 'react';
import { type Lang, t } from '@lib/i18n';
import { AccountMenu } from '@modules/account/account-menu';
import { CartLink } from '@modules/cart/cart-link';
import { LanguageSwitch } from './language-switch';

/** Top bar: shop name, search (GET form, server rendered), language switch, account and cart. */
export function ShopHeader({
  lang,
  tenantName,
  q,
}: {
  lang: Lang;
  tenantName: string;
  q?: string | undefined;
}) {
  const tx = t(lang);
  return (
    <header className="shop-header">
      <Link href={`/${lang}`} className="brand">
        {tenantName} <span className="muted">{tx.shop}</span>
      </Link>
      <form action={`/${lang}`} method="get" className="search" role="search">
        <input
          name="q"
          type="search"
          defaultValue={q ?? ''}
          placeholder={tx.searchPlaceholder}
          aria-label={tx.search}
        />
        <button type="submit">{tx.search}</button>
      </form>
      <Suspense fallback={null}>
        <LanguageSwitch lang={lang} />
      </Suspense>
      <nav className="shop-actions" aria-label={tx.account}>
        <AccountMenu lang={lang} />
        <CartLink lang={lang} />
      </nav>
    </header>
  );
}
