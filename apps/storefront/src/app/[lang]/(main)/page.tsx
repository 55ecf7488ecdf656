import Link from 'next/link';
import { notFound } from 'next/navigation';
import { tenantFeatures } from '@lib/data/features';
import { isLang, t } from '@lib/i18n';
import { ProductList } from '@modules/products/product-list';

export default async function StorePage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ q?: string; page?: string }>;
}) {
  const { lang } = await params;
  if (!isLang(lang)) notFound();
  if (!(await tenantFeatures()).hasFeature('products')) {
    // A tenant without the catalog still has customer accounts (quotations, orders, invoices).
    return (
      <>
        <h1>{t(lang).account}</h1>
        <p>
          <Link href={`/${lang}/account`}>{t(lang).account}</Link>
        </p>
      </>
    );
  }
  const sp = await searchParams;
  const q = typeof sp.q === 'string' && sp.q.trim() ? sp.q.trim() : undefined;
  const page = Math.min(10_000, Math.max(1, Number.parseInt(sp.page ?? '1', 10) || 1));
  return (
    <>
      <h1>{q ? `${t(lang).search}: “${q}”` : t(lang).allProducts}</h1>
      <ProductList lang={lang} q={q} page={page} basePath={`/${lang}`} />
    </>
  );
}
