import type { StoreProduct } from '@lib/data/catalog';
import { timesQuantity } from '@lib/decimal';
import { type Lang, money, t } from '@lib/i18n';
import { AddToCart } from './add-to-cart';
import { PrintTechniques, printTechniquesOf } from './print-techniques';
import { ProductImage } from './product-image';

export function ProductDetail({
  product,
  lang,
  quantity,
  tiers,
  cart,
  configurable,
}: {
  product: StoreProduct;
  lang: Lang;
  quantity: number;
  tiers: { quantity: number; unit_price: string }[];
  /** The tenant has carts (feature quotations): show the buy box. */
  cart: boolean;
  /** The tenant has the logo configurator and the preflight found the product configurable. */
  configurable: boolean;
}) {
  const tx = t(lang);
  return (
    <article className="product-detail">
      <div className="media">
        <ProductImage src={product.image_url} name={product.name} large />
      </div>
      <div className="info">
        <h1>{product.name}</h1>
        <dl className="facts">
          <dt>{tx.sku}</dt>
          <dd>{product.sku}</dd>
          {product.brand && (
            <>
              <dt>{tx.brand}</dt>
              <dd>{product.brand}</dd>
            </>
          )}
          {product.material && (
            <>
              <dt>{tx.material}</dt>
              <dd>{product.material}</dd>
            </>
          )}
        </dl>
        {product.description && <p className="description">{product.description}</p>}

        <form method="get" className="quantity-form">
          <label>
            {tx.quantity}{' '}
            <input name="quantity" type="number" min={1} max={1000000} defaultValue={quantity} required />
          </label>
          <button type="submit">{tx.calculate}</button>
        </form>
        <div className="price-box" data-testid="price-at-quantity">
          <span className="muted">{tx.unitPriceAt(quantity)}</span>
          <strong data-testid="unit-price">{money(product.price.unit_price, lang)}</strong>
          <span>
            {tx.total}:{' '}
            <strong data-testid="total-price">
              {money(timesQuantity(product.price.unit_price, quantity), lang)}
            </strong>{' '}
            <span className="muted">{tx.exclVat}</span>
          </span>
        </div>

        {cart && (
          <AddToCart
            sku={product.sku}
            lang={lang}
            quantity={quantity}
            variants={product.variants}
            configurable={configurable}
          />
        )}

        <h2>{tx.tiers}</h2>
        <table className="tiers" data-testid="tiers">
          <thead>
            <tr>
              <th>{tx.quantity}</th>
              <th>{tx.perPiece}</th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((tier) => (
              <tr key={tier.quantity} className={tier.quantity === quantity ? 'current' : undefined}>
                <td>{tier.quantity}</td>
                <td>{money(tier.unit_price, lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>

        <h2>{tx.variants}</h2>
        <ul className="variants" data-testid="variants">
          {product.variants.map((v) => (
            <li key={v.sku}>
              <span className="swatch" style={{ background: v.hex ?? '#ddd' }} aria-hidden />
              <span>{v.color_name ?? v.color_code ?? v.sku}</span>
              <span className="muted">{v.sku}</span>
              <span className={v.stock === 0 ? 'stock out' : 'stock'}>
                {v.stock === null ? tx.noStockInfo : v.stock === 0 ? tx.outOfStock : tx.inStock(v.stock)}
              </span>
            </li>
          ))}
        </ul>

        <h2>{tx.techniques}</h2>
        <PrintTechniques techniques={printTechniquesOf(product)} lang={lang} quantity={quantity} />
      </div>
    </article>
  );
}
