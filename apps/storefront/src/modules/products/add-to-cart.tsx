'use client';

import Link from 'next/link';
import { useActionState, useState } from 'react';
import type { StoreVariant } from '@lib/data/catalog';
import type { Lang } from '@lib/i18n';
import { addToCartAction, type AddState } from '@modules/cart/actions';
import { LogoConfigurator } from '@modules/cart/logo-configurator';
import { cartTexts } from '@modules/cart/texts';

/**
 * The product's buy box: colour and quantity, "Add to cart" (a plain line) and, when the tenant
 * has the logo configurator and the preflight said the product can be configured, "Customize
 * with your logo".
 */
export function AddToCart({
  sku,
  lang,
  quantity,
  variants,
  configurable,
}: {
  sku: string;
  lang: Lang;
  quantity: number;
  variants: StoreVariant[];
  configurable: boolean;
}) {
  const tx = cartTexts(lang);
  const [state, action, pending] = useActionState<AddState, FormData>(addToCartAction, {});
  const [variant, setVariant] = useState('');
  const [qty, setQty] = useState(String(quantity));
  const parsedQty = Number(qty);
  return (
    <div className="buy-box" data-testid="buy-box">
      <form action={action} className="add-to-cart">
        <input type="hidden" name="lang" value={lang} />
        <input type="hidden" name="sku" value={sku} />
        {variants.length > 0 && (
          <label>
            {tx.variant}
            <select name="variant" value={variant} onChange={(e) => setVariant(e.target.value)}>
              <option value="">{tx.noVariant}</option>
              {variants.map((v) => (
                <option key={v.sku} value={v.sku} disabled={v.stock === 0}>
                  {v.color_name ?? v.color_code ?? v.sku}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {tx.quantity}
          <input
            name="quantity"
            type="number"
            min={1}
            max={1000000}
            value={qty}
            onChange={(e) => setQty(e.target.value)}
            required
          />
        </label>
        <button type="submit" disabled={pending} data-testid="add-to-cart">
          {tx.addToCart}
        </button>
        {configurable && (
          <LogoConfigurator
            sku={sku}
            variant={variant}
            quantity={Number.isInteger(parsedQty) && parsedQty > 0 ? parsedQty : quantity}
            lang={lang}
          />
        )}
      </form>
      {state.ok && (
        <p className="notice" data-testid="added" role="status">
          {tx.added} <Link href={`/${lang}/cart`}>{tx.viewCart}</Link>
        </p>
      )}
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}
