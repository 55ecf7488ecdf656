import Link from 'next/link';
import { retrieveCart } from '@lib/data/cart';
import { tenantFeatures } from '@lib/data/features';
import type { Lang } from '@lib/i18n';
import { cartTexts } from './texts';

/** Header link to the cart with its line count; absent for tenants without quotations (no carts). */
export async function CartLink({ lang }: { lang: Lang }) {
  const features = await tenantFeatures();
  if (!features.hasFeature('quotations')) return null;
  const cart = await retrieveCart(lang).catch(() => null);
  const count = cart && cart.status === 'open' ? cart.item_count : 0;
  return (
    <Link href={`/${lang}/cart`} className="cart-link" data-testid="cart-link">
      {cartTexts(lang).cart}
      {count > 0 && (
        <span className="cart-count" data-testid="cart-count">
          {count}
        </span>
      )}
    </Link>
  );
}
