import { notFound } from 'next/navigation';
import { logoPreflight } from '@lib/data/cart';
import { getProduct, priceTiers } from '@lib/data/catalog';
import { tenantFeatures } from '@lib/data/features';
import { isLang } from '@lib/i18n';
import { ProductDetail } from '@modules/products/product-detail';

const TIER_QUANTITIES = [50, 100, 250, 500, 1000, 2500];

export default async function ProductPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string; sku: string }>;
  searchParams: Promise<{ quantity?: string }>;
}) {
  const { lang, sku: rawSku } = await params;
  if (!isLang(lang)) notFound();
  const sku = decodeURIComponent(rawSku);
  const sp = await searchParams;
  const quantity = Math.min(1_000_000, Math.max(1, Number.parseInt(sp.quantity ?? '100', 10) || 100));
  const [product, tiers, features] = await Promise.all([
    getProduct(sku, lang, quantity),
    priceTiers(
      sku,
      lang,
      [...new Set([...TIER_QUANTITIES, quantity])].sort((a, b) => a - b),
    ),
    tenantFeatures(),
  ]);
  if (!product || !features.hasFeature('products')) notFound();
  const cart = features.hasFeature('quotations');
  // The logo configurator's licence key (packages/licensing): the modal is an external designer.
  const designer = features.hasFeature('designer_external');
  // Spec 3: the customize button shows only when the preflight says the product is configurable.
  const configurable = cart && designer && (await logoPreflight(product.sku)).available;
  return (
    <ProductDetail
      product={product}
      lang={lang}
      quantity={quantity}
      tiers={tiers}
      cart={cart}
      configurable={configurable}
    />
  );
}
