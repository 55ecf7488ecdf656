import Link from 'next/link';
import type { StoreProduct } from '@lib/data/catalog';
import { type Lang, money, t } from '@lib/i18n';
import { ProductImage } from './product-image';

export function ProductCard({ product, lang }: { product: StoreProduct; lang: Lang }) {
  const tx = t(lang);
  return (
    <li className="product-card">
      <Link href={`/${lang}/products/${encodeURIComponent(product.sku)}`}>
        <div className="thumb">
          <ProductImage src={product.image_url} name={product.name} />
        </div>
        <span className="name">{product.name}</span>
        <span className="muted">{product.sku}</span>
        <span className="price">
          {money(product.price.unit_price, lang)}{' '}
          <span className="muted">
            {tx.perPiece}, {tx.atQuantity(product.price.quantity)}
          </span>
        </span>
      </Link>
    </li>
  );
}
