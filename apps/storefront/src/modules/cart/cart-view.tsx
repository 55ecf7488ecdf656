import Link from 'next/link';
import type { Cart, CartItem } from '@lib/data/cart';
import { type Lang, money } from '@lib/i18n';
import { removeLineAction, updateLineAction } from './actions';
import { cartTexts } from './texts';

function Line({ item, lang }: { item: CartItem; lang: Lang }) {
  const tx = cartTexts(lang);
  const c = item.configuration;
  const image = c?.screenshot_url ?? item.thumbnail;
  return (
    <li
      className="cart-line"
      data-testid="cart-line"
      data-sku={item.sku}
      data-configured={c ? 'true' : 'false'}
    >
      <div className="cart-line-media">
        {image ? (
          // Supplier images and the modal's screenshot live on other hosts: a plain img.
          <img
            src={image}
            alt={c ? tx.yourLogo : item.title}
            data-testid={c ? 'logo-screenshot' : undefined}
          />
        ) : (
          <span className="initial">{item.title.charAt(0)}</span>
        )}
      </div>
      <div className="cart-line-info">
        <Link href={`/${lang}/products/${encodeURIComponent(item.product_sku)}`} className="title">
          {item.title}
        </Link>
        <div className="muted small">
          {item.sku}
          {item.color && ` · ${item.color}`}
        </div>
        {c && (
          <div className="configuration" data-testid="configuration">
            <span>
              {tx.technique}: {c.technique_name ?? c.technique}
            </span>
            {c.position && (
              <span>
                {tx.position}: {c.position_name ?? c.position}
              </span>
            )}
            {c.colors.length > 0 && (
              <span className="colours">
                {c.colors.map((col) => (
                  <span key={col} className="swatch" style={{ background: col }} title={col} />
                ))}
                {tx.colours(c.colors.length)}
              </span>
            )}
            {c.proof_url && (
              <a href={c.proof_url} target="_blank" rel="noopener noreferrer" data-testid="proof-link">
                {tx.proof}
              </a>
            )}
          </div>
        )}
        {item.price_error ? (
          <p className="error small">{tx.cannotPrice}</p>
        ) : (
          <div className="cart-line-prices muted small">
            {tx.unitPrice} {money(item.unit_price!, lang)}
            {c && Number(item.print_unit_price) > 0 && (
              <>
                {' · '}
                {tx.printPrice} {money(item.print_unit_price!, lang)}
              </>
            )}
            {Number(item.setup_cost_total) > 0 && (
              <>
                {' · '}
                {tx.setup} {money(item.setup_cost_total!, lang)}
              </>
            )}
          </div>
        )}
      </div>
      <div className="cart-line-actions">
        <form action={updateLineAction} className="line-quantity">
          <input type="hidden" name="lang" value={lang} />
          <input type="hidden" name="line_id" value={item.id} />
          <input
            name="quantity"
            type="number"
            min={1}
            max={1000000}
            defaultValue={item.quantity}
            aria-label={tx.quantity}
            required
          />
          <button type="submit" className="secondary">
            {tx.update}
          </button>
        </form>
        <form action={removeLineAction}>
          <input type="hidden" name="lang" value={lang} />
          <input type="hidden" name="line_id" value={item.id} />
          <button type="submit" className="link" data-testid="remove-line">
            {tx.remove}
          </button>
        </form>
      </div>
      <div className="cart-line-total" data-testid="line-total">
        {item.subtotal ? money(item.subtotal, lang) : '—'}
      </div>
    </li>
  );
}

/** The cart's lines and totals (excl. VAT; shipping is the quotation's). */
export function CartView({ cart, lang }: { cart: Cart; lang: Lang }) {
  const tx = cartTexts(lang);
  return (
    <section className="cart" data-testid="cart">
      <ul className="cart-lines">
        {cart.items.map((item) => (
          <Line key={item.id} item={item} lang={lang} />
        ))}
      </ul>
      <dl className="cart-totals">
        <dt>{tx.itemsSubtotal}</dt>
        <dd>{money(cart.item_subtotal, lang)}</dd>
        {Number(cart.setup_cost_total) > 0 && (
          <>
            <dt>{tx.setup}</dt>
            <dd>{money(cart.setup_cost_total, lang)}</dd>
          </>
        )}
        <dt className="total">
          {tx.subtotal} <span className="muted">{tx.exclVat}</span>
        </dt>
        <dd className="total" data-testid="cart-subtotal">
          {money(cart.subtotal, lang)}
        </dd>
      </dl>
      <p className="muted small">{tx.shippingNote}</p>
    </section>
  );
}
