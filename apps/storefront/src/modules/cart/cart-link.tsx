import Link from 'next/link';
import type { Lang } from '@lib/i18n';

/** Header link to the cart (owned by the cart module; shows the line count once carts exist). */
export function CartLink({ lang }: { lang: Lang }) {
  return (
    <Link href={`/${lang}/cart`} className="cart-link">
      {lang === 'nl' ? 'Winkelwagen' : lang === 'de' ? 'Warenkorb' : 'Cart'}
    </Link>
  );
}
