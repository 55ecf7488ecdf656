import Link from 'next/link';
import { notFound } from 'next/navigation';
import { retrieveCart, signedInCustomer } from '@lib/data/cart';
import { tenantFeatures } from '@lib/data/features';
import { isLang } from '@lib/i18n';
import { CartView } from '@modules/cart/cart-view';
import { QuoteForm } from '@modules/cart/quote-form';
import { cartTexts } from '@modules/cart/texts';

export const dynamic = 'force-dynamic';

/** The cart and its quotation request; only for tenants with quotations (a cart's only way out). */
export default async function CartPage({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params;
  if (!isLang(lang)) notFound();
  const features = await tenantFeatures();
  if (!features.hasFeature('quotations')) notFound();
  const tx = cartTexts(lang);
  const [cart, customer] = await Promise.all([retrieveCart(lang), signedInCustomer()]);
  const open = cart && cart.status === 'open' && cart.items.length > 0 ? cart : null;
  return (
    <div className="cart-page">
      <h1>{tx.cart}</h1>
      {!open ? (
        <div className="cart-empty" data-testid="cart-empty">
          <p>{tx.empty}</p>
          <Link href={`/${lang}`}>{tx.continueShopping}</Link>
        </div>
      ) : (
        <div className="cart-layout">
          <CartView cart={open} lang={lang} />
          <QuoteForm
            lang={lang}
            prefill={
              customer
                ? {
                    name: [customer.first_name, customer.last_name].filter(Boolean).join(' '),
                    email: customer.email,
                    company: customer.company_name ?? '',
                  }
                : null
            }
          />
        </div>
      )}
    </div>
  );
}
