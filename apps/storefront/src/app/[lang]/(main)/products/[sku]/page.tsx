import { notFound } from 'next/navigation';
import { getProduct, priceTiers } from '@lib/data/catalog';
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
  const [product, tiers] = await Promise.all([
    getProduct(sku, lang, quantity),
    priceTiers(
      sku,
      lang,
      [...new Set([...TIER_QUANTITIES, quantity])].sort((a, b) => a - b),
    ),
  ]);
  if (!product) notFound();
  return <ProductDetail product={product} lang={lang} quantity={quantity} tiers={tiers} />;
}
