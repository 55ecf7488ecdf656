import { notFound } from 'next/navigation';
import { findCategory, listCategories } from '@lib/data/catalog';
import { tenantFeatures } from '@lib/data/features';
import { isLang } from '@lib/i18n';
import { ProductList } from '@modules/products/product-list';

export default async function CategoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string; category: string }>;
  searchParams: Promise<{ q?: string; page?: string }>;
}) {
  const { lang, category } = await params;
  if (!isLang(lang) || !(await tenantFeatures()).hasFeature('products')) notFound();
  const node = findCategory(await listCategories(lang), decodeURIComponent(category));
  if (!node) notFound();
  const sp = await searchParams;
  const page = Math.min(10_000, Math.max(1, Number.parseInt(sp.page ?? '1', 10) || 1));
  return (
    <>
      <h1>{node.name}</h1>
      <ProductList
        lang={lang}
        category={node.code}
        page={page}
        basePath={`/${lang}/categories/${node.slug}`}
      />
    </>
  );
}
